// The drill page: fetch a question, collect the answer by mouse, touch or keyboard,
// send it, show the feedback. The server owns the question, the key and the clock;
// the countdown here is only a display. lib.js adds the CSRF header to every POST;
// each kind's script (templates/drills/kinds/<slug>/kind.js, served as
// /static/kinds/<slug>.js and loaded first) wires its questions.
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
  var showError = window.PaiGow.errorLine(document.getElementById("drill-error"));
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
    finished: false,
    handlers: null
  };

  var format = window.PaiGow.format;
  var post = window.PaiGow.post;
  var clock = countdown ? window.PaiGow.countdown(countdown, root, function () {
    if (state.answering) {
      submit(null);
    }
  }) : null;

  function setProgress(done) {
    var shown = Math.min(state.position || 0, state.length);
    progressText.textContent = format(root.dataset.textOf, { n: shown, total: state.length });
    progressBar.setAttribute("aria-valuenow", String(done));
    progressFill.style.width = (100 * done / state.length) + "%";
  }

  // --- the clock (display only: lib.js PaiGow.countdown) -----------------

  function stopClock() {
    if (clock) { clock.stop(); }
  }

  function startClock(remainingMs) {
    stopClock();
    if (clock && remainingMs !== null && remainingMs !== undefined) { clock.run(remainingMs); }
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
      state.handlers = window.PaiGow.wire(questionBox.querySelector(".q"), submit);
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

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) {
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
