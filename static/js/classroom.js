// The trainee's class page (issue 31): ask for the class's state every poll_ms with the
// last change token (If-None-Match; 304 while nothing changed), draw the hand with its
// kind's own templates and script (templates/drills/kinds/<slug>/kind.js, loaded first),
// send the answer, and change it until the lock. The server owns the hand, the answers
// and the clock; the countdown here is only a display. A device that lost its connection
// keeps asking and catches up by itself. Words come from the page (data-text-*).
(function () {
  "use strict";

  var root = document.getElementById("class-seat");
  if (!root) {
    return;
  }
  var questionBox = document.getElementById("question");
  var mineBox = document.getElementById("mine");
  var resultBox = document.getElementById("result");
  var statusLine = document.getElementById("class-status");
  var errorBox = document.getElementById("class-error");
  var countdown = document.getElementById("countdown");
  var homeLink = document.getElementById("class-home");
  var format = window.PaiGow.format;
  var post = window.PaiGow.post;

  var state = {
    token: null,
    pollMs: 750,
    number: null,       // the hand drawn now
    handState: null,
    handlers: null,
    sending: false,
    stopped: false,
    timer: null,
    deadline: null
  };

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  function text(name) {
    return root.getAttribute("data-text-" + name) || "";
  }

  // --- the countdown (display only) -------------------------------------------

  function stopClock() {
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
    countdown.hidden = true;
  }

  function tick() {
    var left = Math.max(0, state.deadline - Date.now());
    countdown.textContent = left > 0 ? format(text("seconds"), { seconds: Math.ceil(left / 1000) })
      : text("time-up");
    countdown.classList.toggle("countdown-low", left <= 5000);
    if (left <= 0) { clearInterval(state.timer); state.timer = null; }
  }

  function startClock(remainingMs) {
    if (remainingMs === null || remainingMs === undefined) { stopClock(); return; }
    state.deadline = Date.now() + remainingMs;
    countdown.hidden = false;
    if (!state.timer) { state.timer = setInterval(tick, 200); }
    tick();
  }

  // --- the answer controls a kind's script wires ------------------------------

  // Two-card front picker (as on the drill page): tap a card to move it to the front,
  // 1-7 toggle the card of that number, Enter sends. It stays open: the answer may change.
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
    function refresh() { submitButton.disabled = chosen().length !== 2; }
    function toggle(pick) {
      window.PaiGow.toggleFront(pick, front, hand, picks);
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
        if (event.key === "Enter" && chosen().length === 2) { onSubmit(chosen()); return true; }
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
        buttons.forEach(function (b) { b.classList.remove("chosen"); });
        button.classList.add("chosen");
        onAnswer(JSON.parse(button.dataset.answer));
      });
    });
    return {
      key: function (event) {
        var match = box.querySelector('.choice[data-key="' + event.key.toLowerCase().replace(/["\\]/g, "") + '"]');
        if (match && !match.disabled) { match.click(); return true; }
        return false;
      }
    };
  }

  function seats(box, onAnswer) {
    box.querySelectorAll("[data-seat]").forEach(function (seat) {
      seat.addEventListener("click", function () { onAnswer({ seat: Number(seat.dataset.seat) }); });
    });
    return { key: function () { return false; } };
  }

  var controls = {
    submit: function (answer) { send(answer); },
    picker: picker,
    choices: choices,
    seats: seats,
    typed: window.PaiGow.typed,
    money: window.PaiGow.money,
    format: format
  };

  function wire(box) {
    var kindWiring = window.PaiGow.kinds[box.dataset.kind];
    return kindWiring ? kindWiring(box, controls) : choices(box, controls.submit);
  }

  // A hand once locked never opens again: its controls stay off.
  function closeControls() {
    questionBox.querySelectorAll("button, input, select").forEach(function (el) { el.disabled = true; });
  }

  // --- sending an answer ------------------------------------------------------

  function send(answer) {
    if (state.handState !== "open" || state.sending || state.number === null) {
      return;
    }
    state.sending = true;
    showError("");
    // The token this page holds: when it was current, the reply brings the next one, so
    // the answer needs no state asked for again.
    var body = { hand: state.number, answer: answer, token: state.token };
    post(root.dataset.answerUrl, body).then(function (reply) {
      state.sending = false;
      if (!reply.ok) {
        showError(reply.data.message || text("error"));
        if (reply.status === 409) { poll(); }
        return;
      }
      mineBox.innerHTML = reply.data.mine_html || "";
      statusLine.textContent = text("answered");
      if (reply.data.token) { state.token = reply.data.token; }
    }).catch(function () {
      state.sending = false;
      showError(text("error"));
    });
  }

  // --- drawing the state ------------------------------------------------------

  function draw(data) {
    state.token = data.token;
    state.pollMs = data.poll_ms || state.pollMs;
    var hand = data.hand;
    if (!hand) {
      state.number = null;
      state.handState = null;
      questionBox.innerHTML = "";
      mineBox.innerHTML = "";
      resultBox.innerHTML = "";
      statusLine.textContent = text("waiting");
      stopClock();
      return;
    }
    if (hand.number !== state.number) {
      if (typeof hand.html !== "string") {
        // The server left the drawing out (the token said this page held the hand): ask
        // again without a token for the whole hand.
        state.token = null;
        return;
      }
      state.number = hand.number;
      questionBox.innerHTML = hand.html;
      resultBox.innerHTML = "";
      state.handlers = wire(questionBox.querySelector(".q"));
    }
    state.handState = hand.state;
    mineBox.innerHTML = hand.mine_html || "";
    if (hand.state !== "open") { closeControls(); }
    if (hand.state === "open") {
      statusLine.textContent = text(hand.answered ? "answered" : "open");
      startClock(hand.remaining_ms);
    } else {
      stopClock();
      statusLine.textContent = text(hand.state === "revealed" ? "revealed" : "locked");
    }
    if (hand.state === "revealed" && hand.result_html && !resultBox.innerHTML) {
      resultBox.innerHTML = hand.result_html;
    }
  }

  // --- the poll ---------------------------------------------------------------

  function schedule() {
    if (!state.stopped) { setTimeout(poll, state.pollMs); }
  }

  function poll() {
    var headers = { "Accept": "application/json" };
    if (state.token) { headers["If-None-Match"] = '"' + state.token + '"'; }
    fetch(root.dataset.stateUrl, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304) {
          showError("");
          return null;
        }
        return response.json().catch(function () { return {}; }).then(function (data) {
          if (!response.ok) {
            showError(data.message || text("error"));
            if (response.status !== 503) {
              // Signed out, not admitted, or the class ended: nothing more to ask for.
              state.stopped = true;
              stopClock();
              closeControls();
              homeLink.hidden = false;
            }
            return null;
          }
          showError("");
          draw(data);
          return null;
        });
      })
      .catch(function () { showError(text("error")); })
      .then(schedule);
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && target.tagName === "INPUT" && target.type === "text") { return; }
    if (state.handState !== "open" || !state.handlers) { return; }
    if (event.key === "Enter" && target && target.tagName === "BUTTON" && !target.classList.contains("card")) {
      return;
    }
    if (state.handlers.key(event)) { event.preventDefault(); }
  });

  poll();
})();
