// The instructor's projector page (issue 31): ask for the class's state every poll_ms with
// the last change token (If-None-Match; 304 while nothing changed), draw the hand and the
// panel the server rendered, and drive the class: deal, lock, reveal, next, timer (each a
// POST with the CSRF header, answered with the new state), names hidden for the room.
// The keys are the buttons' data-key (lib.js presses them). Words come from the page.
(function () {
  "use strict";

  var root = document.getElementById("projector");
  if (!root) {
    return;
  }
  var handBox = document.getElementById("projector-hand");
  var panelBody = document.getElementById("panel-body");
  var showError = window.PaiGow.errorLine(document.getElementById("class-error"));
  var countdown = document.getElementById("countdown");
  var drive = document.getElementById("drive");
  var kindSelect = document.getElementById("drive-kind");
  var howSelect = document.getElementById("drive-how");
  var timerSelect = document.getElementById("drive-timer");
  var namesButton = drive.querySelector('[data-act="names"]');
  var post = window.PaiGow.post;
  var NAMES_KEY = "paigow.classNamesHidden";

  var state = { token: null, pollMs: 750, number: null, handState: null, remaining: null, busy: false };
  var countdownClock = window.PaiGow.countdown(countdown, root);

  // --- names hidden for the room --------------------------------------------

  function applyNames(hidden) {
    root.classList.toggle("names-hidden", hidden);
    namesButton.setAttribute("aria-pressed", hidden ? "true" : "false");
  }
  applyNames(window.localStorage && localStorage.getItem(NAMES_KEY) === "yes");

  // --- the drive form: which rule select and typed form go with the kind ------

  function fitDrive() {
    var kind = kindSelect.value;
    var how = howSelect.value;
    var typedForm = drive.querySelector('[data-typed][data-for-kind="' + kind.replace(/["\\]/g, "") + '"]');
    howSelect.querySelector('option[value="typed"]').disabled = !typedForm;
    if (how === "typed" && !typedForm) { howSelect.value = how = "random"; }
    drive.querySelectorAll("[data-for-kind]").forEach(function (el) {
      var mine = el.dataset.forKind === kind;
      el.hidden = !(mine && ((how === "rule" && el.classList.contains("drive-rule")) ||
                             (how === "typed" && el.hasAttribute("data-typed"))));
    });
  }
  kindSelect.addEventListener("change", fitDrive);
  howSelect.addEventListener("change", fitDrive);
  // A choice made, the keys work again (lib.js leaves a focused select alone).
  drive.querySelectorAll("select").forEach(function (select) {
    select.addEventListener("change", function () { select.blur(); });
  });
  fitDrive();

  function order() {
    var kind = kindSelect.value;
    var how = howSelect.value;
    var body = { kind: kind, how: how, timer_s: Number(timerSelect.value) || 0 };
    if (how === "rule") {
      body.rule = drive.querySelector('.drive-rule[data-for-kind="' + kind.replace(/["\\]/g, "") + '"] select').value;
    }
    if (how === "typed") {
      body.typed = {};
      drive.querySelectorAll('[data-typed][data-for-kind="' + kind.replace(/["\\]/g, "") + '"] input[name]')
        .forEach(function (input) { body.typed[input.name] = input.value; });
    }
    return body;
  }

  // --- the countdown (display only: the server locks at zero) ----------------

  function clock(remainingMs) {
    state.remaining = remainingMs;
    countdownClock.run(remainingMs);
  }

  // --- drawing ------------------------------------------------------------------

  function draw(data) {
    state.token = data.token;
    state.pollMs = data.poll_ms || state.pollMs;
    if (data.number !== state.number || data.hand_state !== state.handState) {
      handBox.innerHTML = data.hand_html;
    }
    state.number = data.number;
    state.handState = data.hand_state;
    panelBody.innerHTML = data.panel_html;
    clock(data.hand_state === "open" ? data.remaining_ms : null);
  }

  function act(url, body, done) {
    if (state.busy) { return; }
    state.busy = true;
    showError("");
    post(url, body || {}).then(function (reply) {
      state.busy = false;
      if (!reply.ok) {
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      draw(reply.data);
      if (done) { done(); }
    }).catch(function () {
      state.busy = false;
      showError(root.dataset.textError);
    });
  }

  drive.addEventListener("submit", function (event) {
    event.preventDefault();
    act(root.dataset.dealUrl, order(), function () {
      // A hand typed in is dealt once: its form closes (it lies over the stage).
      if (howSelect.value === "typed") {
        howSelect.value = "random";
        fitDrive();
      }
    });
  });
  drive.querySelectorAll("button[data-act]").forEach(function (button) {
    button.addEventListener("click", function () {
      var what = button.dataset.act;
      if (what === "lock") { act(root.dataset.lockUrl); }
      else if (what === "reveal") { act(root.dataset.revealUrl); }
      else if (what === "next") { act(root.dataset.nextUrl); }
      else if (what === "timer") {
        // A running timer stops; else it starts with the chosen time (30 s when none is).
        var chosen = Number(timerSelect.value) ||
          Number(timerSelect.querySelector("[data-default]").value);
        act(root.dataset.timerUrl, { seconds: state.remaining === null || state.remaining === undefined ? chosen : 0 });
      } else if (what === "names") {
        var hidden = !root.classList.contains("names-hidden");
        applyNames(hidden);
        try { localStorage.setItem(NAMES_KEY, hidden ? "yes" : "no"); } catch (e) { /* private mode */ }
      }
    });
  });

  // --- the poll -------------------------------------------------------------------

  function poll() {
    window.PaiGow.poll(root.dataset.liveUrl, state.token).then(function (reply) {
      if (reply.status === 304) { return; }
      if (!reply.ok) {
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      if (!state.busy) { draw(reply.data); }
    }).catch(function () { showError(root.dataset.textError); }).then(function () {
      setTimeout(poll, state.pollMs);
    });
  }

  poll();
})();
