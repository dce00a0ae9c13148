// The player's game: chips into the bet circle, Deal, set two cards in front (or
// House Way), Done. The server deals, sets the banker, settles and keeps the
// balance; this page only shows what it answers. lib.js adds the CSRF header.
(function () {
  "use strict";

  var root = document.getElementById("play");
  if (!root) {
    return;
  }

  var balanceBox = document.getElementById("balance");
  var bankerBox = document.getElementById("banker-box");
  var playerBox = document.getElementById("player-box");
  var note = document.getElementById("setting-note");
  var showError = window.PaiGow.errorLine(document.getElementById("play-error"));
  var circle = document.getElementById("bet-circle");
  var betChips = document.getElementById("bet-chips");
  var betAmount = document.getElementById("bet-amount");
  var history = document.getElementById("history");
  var buttons = {
    clear: document.getElementById("clear"),
    rebet: document.getElementById("rebet"),
    deal: document.getElementById("deal"),
    houseWay: document.getElementById("house-way"),
    done: document.getElementById("done"),
    newGame: document.getElementById("new-game")
  };
  var resultBox = document.getElementById("result-box");
  var bankerWaiting = bankerBox.innerHTML;
  var rack = Array.prototype.slice.call(root.querySelectorAll("[data-chip]"));
  var faces = {};  // a chip's face: its amount's number in the reader's format (table.html)
  rack.forEach(function (chip) { faces[chip.dataset.chip] = chip.dataset.face; });

  var state = {
    phase: "loading",   // "betting", "playing" or "busy"
    balance: 0,
    min: Number(root.dataset.min),
    max: Number(root.dataset.max),
    chip: rack.length ? Number(rack[0].dataset.chip) : 100,
    bet: [],            // chip values in the circle, in the order they were placed
    hand: null,         // the dealt hand: id, cards, splits, urls
    picker: null
  };

  var format = window.PaiGow.format;
  var money = window.PaiGow.money;
  var request = window.PaiGow.request;

  // --- the bet circle ------------------------------------------------------

  function betTotal() {
    return state.bet.reduce(function (sum, value) { return sum + value; }, 0);
  }

  function renderBet() {
    betChips.textContent = "";
    state.bet.forEach(function (value, index) {
      var chip = document.createElement("span");
      chip.className = "chip chip-" + value + " chip-placed";
      chip.dataset.index = String(index);
      chip.textContent = faces[value] || money(value, true);  // the rack's number, no sign
      betChips.appendChild(chip);
    });
    var total = betTotal();
    betAmount.textContent = money(total, true);
    // The circle's name is its amount (the chips in it are hidden from screen readers).
    refreshButtons();
  }

  function addChip(value) {
    if (state.phase !== "betting") { return; }
    showError("");
    state.bet.push(value);
    renderBet();
    if (betTotal() > state.max || betTotal() > state.balance) {
      note.textContent = betTotal() > state.balance ? root.dataset.textOverBalance
        : format(root.dataset.textLimits, { min: money(state.min), max: money(state.max) });
    } else {
      note.textContent = "";
    }
  }

  function removeChip(index) {
    if (state.phase !== "betting" || !state.bet.length) { return; }
    state.bet.splice(index === undefined ? state.bet.length - 1 : index, 1);
    note.textContent = "";
    renderBet();
  }

  function selectChip(value) {
    state.chip = value;
    rack.forEach(function (chip) {
      chip.setAttribute("aria-pressed", Number(chip.dataset.chip) === value ? "true" : "false");
    });
  }

  rack.forEach(function (chip) {
    chip.addEventListener("click", function () { selectChip(Number(chip.dataset.chip)); });
  });
  circle.addEventListener("click", function (event) {
    var placed = event.target.closest(".chip-placed");
    if (placed) {
      removeChip(Number(placed.dataset.index));
    } else {
      addChip(state.chip);
    }
  });
  circle.addEventListener("contextmenu", function (event) {
    event.preventDefault();
    removeChip();
  });

  // --- the phases ----------------------------------------------------------

  function refreshButtons() {
    var betting = state.phase === "betting";
    var playing = state.phase === "playing";
    buttons.clear.disabled = !betting || !state.bet.length;
    buttons.rebet.disabled = !betting;
    buttons.deal.disabled = !betting || betTotal() === 0;
    buttons.houseWay.disabled = !playing;
    buttons.newGame.disabled = playing || state.phase === "busy";
    circle.disabled = !betting;
    if (!playing) {
      buttons.done.disabled = true;
    } else if (state.picker) {
      state.picker.refresh();
    }
  }

  function setBalance(cents) {
    state.balance = cents;
    balanceBox.textContent = money(cents);
  }

  function apply(data) {
    setBalance(data.balance_cents);
    state.min = data.min_bet_cents;
    state.max = data.max_bet_cents;
    if (data.hand) {
      showHand(data.hand);
    } else {
      state.phase = "betting";
      refreshButtons();
    }
    // The table has its state: chips and keys now count (before, the phase is "loading").
    root.dataset.loaded = "true";
  }

  function showHand(hand) {
    state.hand = hand;
    state.phase = "playing";
    state.bet = [hand.bet_cents];
    renderBet();
    bankerBox.innerHTML = bankerWaiting;
    resultBox.innerHTML = "";
    playerBox.innerHTML = hand.html;
    state.picker = picker(playerBox.querySelector(".play-hand"), hand);
    refreshButtons();
    var first = playerBox.querySelector(".card");
    if (first && window.matchMedia("(hover: hover)").matches) {
      first.focus({ preventScroll: true });
    }
  }

  function deal(url, body) {
    if (state.phase !== "betting") { return; }
    state.phase = "busy";
    refreshButtons();
    showError("");
    request(url, "POST", body).then(function (reply) {
      if (!reply.ok) {
        state.phase = "betting";
        refreshButtons();
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      apply(reply.data);
    }).catch(function () {
      state.phase = "betting";
      refreshButtons();
      showError(root.dataset.textError);
    });
  }

  function finish(url, body) {
    if (state.phase !== "playing") { return; }
    state.phase = "busy";
    refreshButtons();
    showError("");
    request(url, "POST", body).then(function (reply) {
      if (!reply.ok) {
        state.phase = "playing";
        refreshButtons();
        showError(reply.data.message || root.dataset.textError);
        if (reply.status === 409 || reply.status === 404) {
          load();
        }
        return;
      }
      showResult(reply.data);
    }).catch(function () {
      state.phase = "playing";
      refreshButtons();
      showError(root.dataset.textError);
    });
  }

  function showResult(data) {
    setBalance(data.balance_cents);
    // The result goes under the player's cards; the banker's zone points to it.
    resultBox.innerHTML = data.result_html;
    bankerBox.textContent = "";
    var below = document.createElement("span");
    below.className = "muted";
    below.textContent = root.dataset.textBankerBelow;
    bankerBox.appendChild(below);
    history.insertAdjacentHTML("afterbegin", data.history_html);
    playerBox.querySelectorAll("button").forEach(function (el) { el.disabled = true; });
    note.textContent = "";
    state.hand = null;
    state.picker = null;
    state.bet = [];
    state.phase = "betting";
    renderBet();
    buttons.deal.focus({ preventScroll: true });
  }

  // --- setting the hand ----------------------------------------------------

  // Click a card (or press its number) to move it to the front and back again.
  // The legality of all 21 settings came with the deal, so Done stays disabled,
  // with the reason shown, while the setting is fouled; the server checks again.
  function picker(box, hand) {
    var front = box.querySelector("[data-front]");
    var cards = box.querySelector("[data-cards]");
    var picks = Array.prototype.slice.call(cards.querySelectorAll(".pick"));

    function chosen() {
      return Array.prototype.map.call(front.querySelectorAll(".pick"), function (pick) {
        return pick;
      });
    }

    function refresh() {
      var inFront = chosen();
      var ready = false;
      if (inFront.length < 2) {
        note.textContent = inFront.length ? root.dataset.textOneMore : root.dataset.textPick;
        note.classList.remove("fouled");
      } else {
        var places = inFront.map(function (p) { return Number(p.dataset.index); }).sort();
        var split = hand.splits[places[0] + "-" + places[1]];
        ready = !split.fouled;
        note.classList.toggle("fouled", split.fouled);
        note.textContent = split.fouled ? split.reason
          : format(root.dataset.textLegal, { back: split.back, front: split.front });
      }
      buttons.done.disabled = !ready || state.phase !== "playing";
    }

    function toggle(pick) {
      if (state.phase !== "playing") { return; }
      window.PaiGow.toggleFront(pick, front, cards, picks);
      refresh();
    }

    picks.forEach(function (pick) {
      pick.querySelector(".card").addEventListener("click", function () { toggle(pick); });
    });
    refresh();
    return {
      refresh: refresh,
      front: function () {
        return chosen().map(function (p) { return p.querySelector(".card").dataset.card; });
      },
      toggleNumber: function (n) {
        if (picks[n - 1]) { toggle(picks[n - 1]); }
      },
      back: function () {
        var last = front.lastElementChild;
        if (last) { toggle(last); }
      }
    };
  }

  function done() {
    if (state.phase === "playing" && state.picker && !buttons.done.disabled) {
      finish(state.hand.done_url, { front: state.picker.front() });
    }
  }

  function houseWay() {
    if (state.phase === "playing") {
      finish(state.hand.house_way_url, {});
    }
  }

  buttons.clear.addEventListener("click", function () {
    state.bet = [];
    note.textContent = "";
    renderBet();
  });
  var sideBet = document.getElementById("side-bet");
  buttons.deal.addEventListener("click", function () {
    deal(root.dataset.dealUrl, { bet_cents: betTotal(), bonus_cents: sideBet ? Number(sideBet.value) : 0 });
  });
  buttons.rebet.addEventListener("click", function () {
    deal(root.dataset.rebetUrl, {});
  });
  buttons.houseWay.addEventListener("click", houseWay);
  buttons.done.addEventListener("click", done);

  // --- the keyboard --------------------------------------------------------

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) {
      return;
    }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    // Enter on a focused button (not a card) activates it natively.
    if (key === "Enter" && target && target.tagName === "BUTTON" && !target.classList.contains("card")) {
      return;
    }
    var handled = true;
    if (state.phase === "betting") {
      if (/^[1-4]$/.test(key) && rack[Number(key) - 1]) {
        var value = Number(rack[Number(key) - 1].dataset.chip);
        selectChip(value);
        addChip(value);
      } else if (key === "Backspace") {
        removeChip();
      } else if (key === "c") {
        buttons.clear.click();
      } else if (key === "r") {
        buttons.rebet.click();
      } else if ((key === "d" || key === "Enter") && !buttons.deal.disabled) {
        buttons.deal.click();
      } else {
        handled = false;
      }
    } else if (state.phase === "playing" && state.picker) {
      if (/^[1-7]$/.test(key)) {
        state.picker.toggleNumber(Number(key));
      } else if (key === "Backspace") {
        state.picker.back();
      } else if (key === "h") {
        houseWay();
      } else if (key === "Enter") {
        done();
      } else {
        handled = false;
      }
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  });

  function load() {
    request(root.dataset.stateUrl, "GET").then(function (reply) {
      if (!reply.ok) {
        showError(reply.data.message || root.dataset.textError);
        return;
      }
      apply(reply.data);
    }).catch(function () {
      showError(root.dataset.textError);
    });
  }

  renderBet();
  load();
})();
