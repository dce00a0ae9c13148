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
  var showError = window.PaiGow.errorLine(document.getElementById("class-error"));
  var countdown = document.getElementById("countdown");
  var homeLink = document.getElementById("class-home");
  var post = window.PaiGow.post;

  var state = {
    token: null,
    pollMs: 750,
    number: null,       // the hand drawn now
    handState: null,
    handlers: null,
    sending: false,
    stopped: false
  };
  var clock = window.PaiGow.countdown(countdown, root);

  function text(name) {
    return root.getAttribute("data-text-" + name) || "";
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
      clock.run(null);
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
      state.handlers = window.PaiGow.wire(questionBox.querySelector(".q"), send);
    }
    state.handState = hand.state;
    mineBox.innerHTML = hand.mine_html || "";
    if (hand.state !== "open") { closeControls(); }
    if (hand.state === "open") {
      statusLine.textContent = text(hand.answered ? "answered" : "open");
      clock.run(hand.remaining_ms);
    } else {
      clock.run(null);
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
    window.PaiGow.poll(root.dataset.stateUrl, state.token).then(function (reply) {
      if (reply.status === 304) {
        showError("");
        return;
      }
      if (!reply.ok) {
        showError(reply.data.message || text("error"));
        if (reply.status !== 503) {
          // Signed out, not admitted, or the class ended: nothing more to ask for.
          state.stopped = true;
          clock.run(null);
          closeControls();
          homeLink.hidden = false;
        }
        return;
      }
      showError("");
      draw(reply.data);
    }).catch(function () { showError(text("error")); }).then(schedule);
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
