// The drill page: fetch a question, collect the answer by mouse, touch or keyboard,
// send it, show the feedback. The server owns the question, the key and the clock;
// the countdown here is only a display. app.js adds the CSRF header to every POST.
(function () {
  "use strict";

  var root = document.getElementById("drill");
  var fourColour = document.getElementById("four-colour");
  var FOUR_COLOUR_KEY = "paigow.fourColour";

  function applyFourColour(on) {
    document.body.classList.toggle("four-colour", on);
    if (fourColour) {
      fourColour.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  applyFourColour(window.localStorage && localStorage.getItem(FOUR_COLOUR_KEY) === "yes");
  if (fourColour) {
    fourColour.addEventListener("click", function () {
      var on = !document.body.classList.contains("four-colour");
      applyFourColour(on);
      try { localStorage.setItem(FOUR_COLOUR_KEY, on ? "yes" : "no"); } catch (e) { /* private mode */ }
    });
  }
  if (!root) {
    return;
  }

  var questionBox = document.getElementById("question");
  var feedbackBox = document.getElementById("feedback");
  var errorBox = document.getElementById("drill-error");
  var nextBar = document.getElementById("next-bar");
  var nextButton = document.getElementById("next");
  var summaryLink = document.getElementById("to-summary");
  var countdown = document.getElementById("countdown");
  var progressFill = document.getElementById("progress-fill");
  var progressText = document.getElementById("progress-text");
  var progressBar = root.querySelector(".progress");
  var whyButton = document.getElementById("why");
  var hintBox = document.getElementById("hint");
  var mode = root.dataset.mode;

  var state = {
    position: null,
    length: Number(root.dataset.length),
    answering: false,   // a question is on screen and open for an answer
    sending: false,
    deadline: null,
    timer: null,
    finished: false,
    handlers: null
  };

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    });
  }

  function setProgress(done) {
    var shown = Math.min(state.position || 0, state.length);
    progressText.textContent = format(root.dataset.textOf, { n: shown, total: state.length });
    progressBar.setAttribute("aria-valuenow", String(done));
    progressFill.style.width = (100 * done / state.length) + "%";
  }

  // --- the clock (display only) ---------------------------------------------

  function stopClock() {
    if (state.timer) {
      clearInterval(state.timer);
      state.timer = null;
    }
  }

  function tick() {
    var left = Math.max(0, state.deadline - Date.now());
    countdown.textContent = format(root.dataset.textSeconds, { seconds: Math.ceil(left / 1000) });
    countdown.classList.toggle("countdown-low", left <= 5000);
    if (left <= 0) {
      stopClock();
      countdown.textContent = root.dataset.textTimeUp;
      if (state.answering) {
        submit(null);
      }
    }
  }

  function startClock(remainingMs) {
    stopClock();
    if (!countdown || remainingMs === null || remainingMs === undefined) {
      return;
    }
    state.deadline = Date.now() + remainingMs;
    tick();
    state.timer = setInterval(tick, 200);
  }

  // --- questions and answers ------------------------------------------------

  function loadQuestion() {
    showError("");
    feedbackBox.innerHTML = "";
    nextBar.hidden = true;
    if (hintBox) { hintBox.hidden = true; }
    post(root.dataset.questionUrl).then(function (reply) {
      if (!reply.ok) {
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      var data = reply.data;
      if (data.finished) {
        window.location.assign(data.summary_url);
        return;
      }
      state.position = data.position;
      state.length = data.length;
      setProgress(data.position - 1);
      questionBox.innerHTML = data.html;
      state.answering = true;
      state.sending = false;
      state.handlers = wire(questionBox.querySelector(".q"));
      if (whyButton) {
        whyButton.hidden = !data.hint;
        hintBox.textContent = data.hint || "";
      }
      startClock(data.remaining_ms);
      var first = questionBox.querySelector("button, input");
      if (first && window.matchMedia("(hover: hover)").matches) {
        first.focus({ preventScroll: true });
      }
    }).catch(function () {
      showError(root.dataset.textError);
    });
  }

  function submit(answer) {
    if (!state.answering || state.sending) {
      return;
    }
    state.sending = true;
    showError("");
    post(root.dataset.answerUrl, { position: state.position, answer: answer }).then(function (reply) {
      if (!reply.ok) {
        state.sending = false;
        if (reply.status === 409) {
          // Already recorded (another tab, or a repeated tap): move on.
          state.answering = false;
          stopClock();
          loadQuestion();
          return;
        }
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      state.answering = false;
      stopClock();
      showResult(reply.data);
    }).catch(function () {
      state.sending = false;
      showError(root.dataset.textError);
    });
  }

  function showResult(data) {
    setProgress(data.position);
    questionBox.querySelectorAll("button, input").forEach(function (el) { el.disabled = true; });
    state.finished = data.finished;
    if (mode === "exam") {
      // A sealed exam shows nothing per question: straight on to the next.
      if (data.finished) {
        window.location.assign(data.summary_url);
      } else {
        loadQuestion();
      }
      return;
    }
    feedbackBox.innerHTML = data.html || "";
    nextBar.hidden = false;
    nextButton.hidden = data.finished;
    summaryLink.hidden = !data.finished;
    (data.finished ? summaryLink : nextButton).focus({ preventScroll: true });
    feedbackBox.scrollIntoView({ block: "nearest" });
  }

  nextButton.addEventListener("click", loadQuestion);
  if (whyButton) {
    whyButton.addEventListener("click", function () {
      hintBox.hidden = !hintBox.hidden;
    });
  }

  // --- per-kind controls ----------------------------------------------------

  // Two-card front picker: tap a card to move it to the front, tap it again to
  // move it back; 1-7 toggle the card of that number; Enter submits.
  function picker(box, onSubmit) {
    var front = box.querySelector("[data-front]");
    var hand = box.querySelector("[data-hand]");
    var submitButton = box.querySelector("[data-submit]");
    var picks = Array.prototype.slice.call(hand.querySelectorAll(".pick"));

    function chosen() {
      return Array.prototype.map.call(front.querySelectorAll(".card"), function (c) {
        return c.dataset.card;
      });
    }

    function refresh() {
      submitButton.disabled = chosen().length !== 2;
    }

    function toggle(pick) {
      window.PaiGowFront.toggle(pick, front, hand, picks);
      refresh();
    }

    picks.forEach(function (pick) {
      pick.querySelector(".card").addEventListener("click", function () { toggle(pick); });
    });
    submitButton.addEventListener("click", function () {
      if (chosen().length === 2) { onSubmit(chosen()); }
    });
    return {
      key: function (event) {
        if (/^[1-7]$/.test(event.key)) {
          var pick = picks[Number(event.key) - 1];
          if (pick) { toggle(pick); return true; }
        }
        if (event.key === "Enter" && chosen().length === 2) {
          onSubmit(chosen());
          return true;
        }
        if (event.key === "Backspace" && front.lastElementChild) {
          toggle(front.lastElementChild);
          return true;
        }
        return false;
      }
    };
  }

  function choices(box, onAnswer) {
    var buttons = Array.prototype.slice.call(box.querySelectorAll(".choice[data-answer]"));
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        button.classList.add("chosen");
        onAnswer(JSON.parse(button.dataset.answer));
      });
    });
    return {
      key: function (event) {
        var key = event.key.toLowerCase();
        var match = box.querySelector('.choice[data-key="' + key + '"]');
        if (match && !match.disabled) {
          match.click();
          return true;
        }
        return false;
      }
    };
  }

  function parseCents(text) {
    var value = text.trim().replace(/^\$/, "").replace(/,/g, "");
    var match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
    if (!match) {
      return null;
    }
    var cents = match[2] ? Number((match[2] + "0").slice(0, 2)) : 0;
    return Number(match[1]) * 100 + cents;
  }

  function settlement(box) {
    var form = box.querySelector("[data-settle]");
    form.querySelectorAll("tr[data-seat]").forEach(function (row) {
      var paid = row.querySelector("[data-paid]");
      row.querySelectorAll("[data-outcome]").forEach(function (radio) {
        radio.addEventListener("change", function () {
          paid.disabled = radio.value !== "win";
          if (radio.value === "win") {
            paid.focus();
          } else {
            paid.value = "";
          }
        });
      });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var positions = Array.prototype.map.call(form.querySelectorAll("tr[data-seat]"), function (row) {
        var checked = row.querySelector("[data-outcome]:checked");
        var entry = { outcome: checked ? checked.value : null };
        if (entry.outcome === "win") {
          entry.paid_cents = parseCents(row.querySelector("[data-paid]").value);
        }
        return entry;
      });
      submit({ positions: positions });
    });
    return { key: function () { return false; } };
  }

  function action(box) {
    var seats = box.querySelectorAll("[data-seat]");
    seats.forEach(function (seat) {
      seat.addEventListener("click", function () {
        seat.classList.add("chosen");
        submit({ seat: Number(seat.dataset.seat) });
      });
    });
    return {
      key: function (event) {
        if (/^[1-7]$/.test(event.key)) {
          box.querySelector('[data-seat="' + event.key + '"]').click();
          return true;
        }
        return false;
      }
    };
  }

  function foulCheck(box) {
    var simple = choices(box, submit);
    var resetButton = box.querySelector("[data-reset]");
    var resetBox = box.querySelector("[data-reset-picker]");
    var reset = null;
    if (resetButton) {
      resetButton.addEventListener("click", function () {
        resetButton.classList.add("chosen");
        resetBox.hidden = false;
        reset = picker(resetBox, function (front) { submit({ fouled: true, front: front }); });
        resetBox.querySelector(".card").focus({ preventScroll: true });
      });
    }
    return {
      key: function (event) {
        if (reset) { return reset.key(event); }
        if (event.key.toLowerCase() === "f" && resetButton) {
          resetButton.click();
          return true;
        }
        return simple.key(event);
      }
    };
  }

  // A round's settle step: settle seats one by one in the trainee's order (take a
  // loser, or pay a winner an amount); seats never touched are pushes left in place.
  function roundSettle(box) {
    var panel = box.querySelector("[data-round-settle]");
    var list = panel.querySelector("[data-order]");
    var bankerInput = panel.querySelector("[data-banker-commission]");
    var submitButton = panel.querySelector("[data-submit]");
    var rows = Array.prototype.slice.call(panel.querySelectorAll("tr[data-seat]"));
    var order = [];
    var current = null;

    function row(seat) {
      return rows.filter(function (r) { return Number(r.dataset.seat) === seat; })[0];
    }

    function dollars(cents) {
      return "$" + (cents / 100).toFixed(2);
    }

    function render() {
      list.textContent = "";
      order.forEach(function (entry) {
        var item = document.createElement("li");
        var template = entry.action === "take" ? panel.dataset.textTake : panel.dataset.textPay;
        var amount = entry.action === "take" ? Number(row(entry.seat).dataset.bet) : entry.paid_cents;
        item.textContent = format(template, { seat: entry.seat, amount: dollars(amount) });
        item.dataset.seat = String(entry.seat);
        item.dataset.action = entry.action;
        list.appendChild(item);
      });
      rows.forEach(function (r) {
        var done = order.some(function (e) { return e.seat === Number(r.dataset.seat); });
        r.classList.toggle("settled", done);
        r.querySelectorAll("button, input").forEach(function (el) { el.disabled = done; });
      });
    }

    function add(seat, action, paid) {
      if (!row(seat) || order.some(function (e) { return e.seat === seat; })) { return; }
      var entry = { seat: seat, action: action };
      if (action === "pay") { entry.paid_cents = paid; }
      order.push(entry);
      render();
      submitButton.focus({ preventScroll: true });
    }

    function pay(seat) {
      var r = row(seat);
      if (!r) { return; }
      var input = r.querySelector("[data-pay-amount]");
      var cents = parseCents(input.value);
      if (cents === null) {
        input.focus();
        return;
      }
      add(seat, "pay", cents);
    }

    function send() {
      var answer = { order: order.slice() };
      if (bankerInput) {
        answer.banker_commission_cents = parseCents(bankerInput.value);
      }
      submit(answer);
    }

    function select(seat) {
      var r = row(seat);
      if (!r) { return false; }
      rows.forEach(function (other) { other.classList.toggle("current", other === r); });
      current = seat;
      var take = r.querySelector("[data-take]");
      if (!take.disabled) { take.focus({ preventScroll: true }); }
      return true;
    }

    rows.forEach(function (r) {
      var seat = Number(r.dataset.seat);
      r.querySelector("[data-take]").addEventListener("click", function () { add(seat, "take"); });
      r.querySelector("[data-pay]").addEventListener("click", function () { pay(seat); });
      r.querySelector("[data-pay-amount]").addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          pay(seat);
        }
      });
    });
    if (bankerInput) {
      bankerInput.addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          send();
        }
      });
    }
    panel.querySelector("[data-undo]").addEventListener("click", function () {
      order.pop();
      render();
    });
    submitButton.addEventListener("click", send);
    return {
      key: function (event) {
        var key = event.key.toLowerCase();
        if (/^[1-7]$/.test(key)) { return select(Number(key)); }
        if (key === "t" && current !== null) { add(current, "take"); return true; }
        if (key === "p" && current !== null) { pay(current); return true; }
        if (key === "b" && bankerInput) { bankerInput.focus(); return true; }
        if (event.key === "Backspace") { order.pop(); render(); return true; }
        if (event.key === "Enter") { send(); return true; }
        return false;
      }
    };
  }

  function roundStep(box) {
    var step = box.dataset.step;
    if (step === "action") { return action(box); }
    if (step === "banker") {
      return picker(box, function (front) { submit({ front: front }); });
    }
    return roundSettle(box);
  }

  function wire(box) {
    var kind = box.dataset.kind;
    if (kind === "round") { return roundStep(box); }
    if (kind === "house-way") {
      return picker(box, function (front) { submit({ front: front }); });
    }
    if (kind === "settlement") { return settlement(box); }
    if (kind === "action") { return action(box); }
    if (kind === "foul-check") { return foulCheck(box); }
    return choices(box, submit);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    var target = event.target;
    var typing = target && (target.tagName === "INPUT" && target.type === "text");
    if (!state.answering) {
      if (event.key === "Enter" && !nextBar.hidden && target !== summaryLink && target !== nextButton) {
        event.preventDefault();
        (state.finished ? summaryLink : nextButton).click();
      }
      return;
    }
    if (typing || !state.handlers) {
      return;
    }
    // Enter on a focused button activates it natively; the handlers see the rest.
    if (event.key === "Enter" && target && target.tagName === "BUTTON" && !target.classList.contains("card")) {
      return;
    }
    if (state.handlers.key(event)) {
      event.preventDefault();
    }
  });

  loadQuestion();
})();
