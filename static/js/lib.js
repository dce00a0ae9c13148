// The shared script of every page (loaded by base.html before any page script):
// JSON fetches with the CSRF header, text templates, money in cents (written in the
// page's locale), the two-card front picker, and the drill kinds' map. Plain script,
// no build step: everything hangs off window.PaiGow.
(function () {
  "use strict";

  var PaiGow = window.PaiGow = window.PaiGow || {};
  var meta = document.querySelector('meta[name="csrf-token"]');
  var token = meta ? meta.getAttribute("content") : null;
  var SAFE = /^(GET|HEAD|OPTIONS|TRACE)$/i;

  // Send the CSRF token with every state-changing fetch to this site, so
  // Flask-WTF accepts JavaScript POSTs just like form POSTs.
  if (token && window.fetch) {
    var originalFetch = window.fetch.bind(window);
    window.fetch = function (input, init) {
      init = init || {};
      var method = init.method || (input instanceof Request ? input.method : "GET");
      var url = new URL(input instanceof Request ? input.url : input, window.location.href);
      if (!SAFE.test(method) && url.origin === window.location.origin) {
        var headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
        headers.set("X-CSRFToken", token);
        init.headers = headers;
      }
      return originalFetch(input, init);
    };
  }

  // Ask the server for JSON (a POST sends "body" as JSON); resolve to
  // { ok, status, data }, data {} when the reply is not JSON.
  PaiGow.request = function (url, method, body) {
    var init = { method: method, credentials: "same-origin", headers: { "Accept": "application/json" } };
    if (method === "POST") {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body || {});
    }
    return fetch(url, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    });
  };

  PaiGow.post = function (url, body) {
    return PaiGow.request(url, "POST", body);
  };

  // A page's error line (role="alert"): the function that shows a message there, or
  // hides the line when the message is empty.
  PaiGow.errorLine = function (box) {
    return function (message) {
      box.textContent = message || "";
      box.hidden = !message;
    };
  };

  // Fill a translated template's %(name)s places.
  PaiGow.format = function (template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  };

  // Integer cents as money in the page's locale and currency, from the format the
  // server put on <body data-money> (web/platform/languages.py MoneyFormat): "47,50 US$";
  // "short" drops a whole amount's cents. Typed amounts are read by the server.
  var moneyFormat = null;
  PaiGow.money = function (cents, short) {
    if (!moneyFormat) {
      try { moneyFormat = JSON.parse(document.body.dataset.money); } catch (e) { moneyFormat = {}; }
    }
    var f = moneyFormat, abs = Math.abs(cents), part = abs % 100;
    var n = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, f.group || ",");
    if (!(short && part === 0)) { n += (f.decimal || ".") + (part < 10 ? "0" : "") + part; }
    return ((cents < 0 ? f.negative : f.positive) || "%(n)s").replace("%(n)s", n);
  };

  // A typed amount as it goes to the server: the text, trimmed; null when empty.
  PaiGow.typed = function (text) {
    var value = (text || "").trim();
    return value === "" ? null : value;
  };

  // Move a card between a hand of seven and the two-card front, shared by the drill
  // page and the player's game: a picked card goes to the front (at most two), a
  // front card goes back to its own place among the seven.
  PaiGow.toggleFront = function (pick, front, hand, picks) {
    var button = pick.querySelector(".card");
    if (pick.parentNode === front) {
      var index = Number(pick.dataset.index);
      var after = picks.filter(function (p) {
        return p.parentNode === hand && Number(p.dataset.index) > index;
      })[0];
      hand.insertBefore(pick, after || null);
      button.setAttribute("aria-pressed", "false");
      button.classList.remove("selected");
    } else if (front.children.length < 2) {
      front.appendChild(pick);
      button.setAttribute("aria-pressed", "true");
      button.classList.add("selected");
    }
    button.focus({ preventScroll: true });
  };

  // The drill kinds' question wiring by slug: each kind's script (its web folder's
  // kind.js, served as /static/kinds/<slug>.js) adds its own, a function
  // (box, controls) returning { key: function (event) -> handled }.
  PaiGow.kinds = PaiGow.kinds || {};

  // The answer controls a kind's script wires its question with, shared by the drill
  // page and the class page; each returns { key: function (event) -> handled }.
  // Two-card front picker: tap a card to move it to the front, tap it again to move it
  // back; 1-7 toggle the card of that number; Enter sends, Backspace takes the last back.
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
    function toggle(pick) {
      PaiGow.toggleFront(pick, front, hand, picks);
      submitButton.disabled = chosen().length !== 2;
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

  // Buttons that answer when clicked, the one clicked last marked chosen: answerOf(button)
  // is its answer, byKey(key) the button a key presses (none: null).
  function answerButtons(buttons, onAnswer, answerOf, byKey) {
    buttons = Array.prototype.slice.call(buttons);
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        buttons.forEach(function (b) { b.classList.remove("chosen"); });
        button.classList.add("chosen");
        onAnswer(answerOf(button));
      });
    });
    return {
      key: function (event) {
        var match = byKey(event.key);
        if (match && !match.disabled) { match.click(); return true; }
        return false;
      }
    };
  }

  // A question's fixed choices: each answer in its button's data-answer, its data-key presses it.
  function choices(box, onAnswer) {
    return answerButtons(box.querySelectorAll(".choice[data-answer]"), onAnswer, function (button) {
      return JSON.parse(button.dataset.answer);
    }, function (key) {
      return box.querySelector('.choice[data-key="' + key.toLowerCase().replace(/["\\]/g, "") + '"]');
    });
  }

  // The seven seats of a call-the-action question: click a seat or press 1-7.
  function seats(box, onAnswer) {
    return answerButtons(box.querySelectorAll("[data-seat]"), onAnswer, function (seat) {
      return { seat: Number(seat.dataset.seat) };
    }, function (key) {
      return /^[1-7]$/.test(key) ? box.querySelector('[data-seat="' + key + '"]') : null;
    });
  }

  // Wire a question box (.q, data-kind) by its kind's script; a kind without a script
  // of its own answers by its fixed choices. "submit" sends an answer.
  PaiGow.wire = function (box, submit) {
    var controls = {
      submit: submit, picker: picker, choices: choices, seats: seats,
      typed: PaiGow.typed, money: PaiGow.money, format: PaiGow.format
    };
    var kindWiring = PaiGow.kinds[box.dataset.kind];
    return kindWiring ? kindWiring(box, controls) : choices(box, submit);
  };

  // A countdown shown in "box", for display only (the server owns the clock): the words
  // are the page's data-text-seconds and data-text-time-up on "root"; onZero, if given,
  // runs when it reaches zero. run(ms) counts down from ms (null: stop and hide it);
  // stop() leaves the last figure shown.
  PaiGow.countdown = function (box, root, onZero) {
    var timer = null;
    var deadline = null;
    function stop() {
      if (timer) { clearInterval(timer); timer = null; }
    }
    function tick() {
      var left = Math.max(0, deadline - Date.now());
      box.textContent = left > 0 ? PaiGow.format(root.dataset.textSeconds, { seconds: Math.ceil(left / 1000) })
        : root.dataset.textTimeUp;
      box.classList.toggle("countdown-low", left <= 5000);
      if (left <= 0) {
        stop();
        if (onZero) { onZero(); }
      }
    }
    return {
      stop: stop,
      run: function (ms) {
        if (ms === null || ms === undefined) { stop(); box.hidden = true; return; }
        deadline = Date.now() + ms;
        box.hidden = false;
        if (!timer) { timer = setInterval(tick, 200); }
        tick();
      }
    };
  };

  // Ask for a polled state with the last change token (If-None-Match): resolve to
  // { ok, status, data }, status 304 and data null while nothing changed.
  PaiGow.poll = function (url, token) {
    var headers = { "Accept": "application/json" };
    if (token) { headers["If-None-Match"] = '"' + token + '"'; }
    return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers }).then(function (response) {
      if (response.status === 304) { return { ok: true, status: 304, data: null }; }
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    });
  };

  // Key W presses [data-key="w"] (not while typing); in [data-key-scope] rows the
  // focused row wins, else the first one not chosen yet.
  function typingIn(el) {
    var tag = el && el.tagName;
    return !!tag && (el.isContentEditable || tag === "TEXTAREA" || tag === "SELECT" ||
      (tag === "INPUT" && !/^(button|checkbox|radio|submit|reset)$/i.test(el.type)));
  }

  document.addEventListener("keydown", function (event) {
    var t = event.target;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(t)) { return; }
    var scope = t.closest && t.closest("[data-key-scope]");
    var found = null;
    document.querySelectorAll("[data-key]").forEach(function (el) {
      var row = el.closest("[data-key-scope]");
      if (el.dataset.key !== event.key.toLowerCase() || el.disabled || !el.getClientRects().length ||
          el.closest("[hidden]") || (found && !(scope && row === scope))) { return; }
      if (!row || row === scope || (!scope && !row.querySelector("input:checked"))) { found = el; }
    });
    if (found) {
      event.preventDefault();
      found.click();
    }
  });

  // A .table too wide for its box: a card per row (app.css .stacked), cells labelled
  // with their column's header.
  function fitTables() {
    document.querySelectorAll("table.table").forEach(function (table) {
      var heads = table.tHead ? table.tHead.rows[0].cells : [];
      Array.prototype.forEach.call(table.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (row) {
          Array.prototype.forEach.call(row.cells, function (cell, i) {
            var head = heads[i] && heads[i].textContent.replace(/[\s\u25b2\u25bc]+/g, " ").trim();
            if (head && !cell.hasAttribute("data-label")) { cell.setAttribute("data-label", head); }
          });
        });
      });
      table.classList.remove("stacked");
      // A table that lays itself out on a narrow screen (a drill's seat rows, app.css and
      // drills.css) or scrolls inside its own box (the class table) is never stacked.
      if (table.hasAttribute("data-no-stack")) { return; }
      var box = table.parentElement;
      table.classList.toggle("stacked", box.scrollWidth > box.clientWidth + 1);
    });
  }
  // The menu on one line, or folded behind its "Menu" button when a language's words do
  // not fit the screen (app.css .menu-folded; below 1100 px it always folds).
  function fitMenu() {
    var bar = document.querySelector(".topbar");
    var links = bar ? bar.querySelectorAll(".nav a, .logout") : [];
    if (!links.length) { return; }
    bar.classList.remove("menu-folded");
    if (window.matchMedia("(max-width: 1100px)").matches) { return; }
    var first = links[0].getBoundingClientRect();
    var wraps = Array.prototype.some.call(links, function (el) {
      var r = el.getBoundingClientRect();
      return r.top >= first.bottom - 1 || r.bottom <= first.top + 1;
    });
    bar.classList.toggle("menu-folded", wraps);
  }
  var fitting = null;
  function fitSoon() {
    window.cancelAnimationFrame(fitting);
    fitting = window.requestAnimationFrame(function () { fitMenu(); fitTables(); });
  }
  window.addEventListener("resize", fitSoon);
  document.addEventListener("DOMContentLoaded", function () {
    fitMenu();
    fitTables();
    new MutationObserver(fitSoon).observe(document.body, { childList: true, subtree: true });
  });
})();
