// A round: call the action, set the banker's hand, then settle the seats in order.
(function () {
  "use strict";

  // A round's settle step: settle seats one by one in the trainee's order (take a
  // loser, or pay a winner an amount); seats never touched are pushes left in place.
  function roundSettle(box, c) {
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

    // A typed payment as the page writes money ("47,5" -> "47,50 $" in Russian), when it
    // is plainly whole units with at most two decimals in the page's decimal sign; any
    // other text is shown as typed (the server reads it, or refuses it with a sentence).
    function shownPaid(typed) {
      var decimal = ".";
      try { decimal = JSON.parse(document.body.dataset.money).decimal || "."; } catch (e) { /* as typed */ }
      var found = String(typed).split(decimal);
      if (found.length > 2 || !/^\d{1,9}$/.test(found[0]) || (found.length === 2 && !/^\d{1,2}$/.test(found[1]))) {
        return typed;
      }
      var part = found.length === 2 ? Number((found[1] + "0").slice(0, 2)) : 0;
      return c.money(Number(found[0]) * 100 + part);
    }

    function render() {
      list.textContent = "";
      order.forEach(function (entry) {
        var item = document.createElement("li");
        var template = entry.action === "take" ? panel.dataset.textTake : panel.dataset.textPay;
        var amount = entry.action === "take" ? Number(row(entry.seat).dataset.bet) : entry.paid_cents;
        item.textContent = c.format(template, { seat: entry.seat, amount: entry.action === "take" ? c.money(amount) : shownPaid(amount) });
        item.dataset.seat = String(entry.seat);
        item.dataset.action = entry.action;
        list.appendChild(item);
      });
      rows.forEach(function (r) {
        var done = order.some(function (e) { return e.seat === Number(r.dataset.seat); });
        r.classList.toggle("settled", done);
        r.querySelectorAll("button, input:not([data-side])").forEach(function (el) { el.disabled = done; });
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
      var typed = c.typed(input.value);
      if (typed === null) {
        input.focus();
        return;
      }
      add(seat, "pay", typed);
    }

    function send() {
      var answer = { order: order.slice() };
      if (bankerInput) {
        answer.banker_commission_cents = c.typed(bankerInput.value);
      }
      // Each seat with a side bet: its pay and Envy (blank is 0: most side bets lose).
      var side = rows.filter(function (r) { return r.querySelector("[data-bonus-paid]"); }).map(function (r) {
        var entry = { seat: Number(r.dataset.seat) };
        [["bonus_paid_cents", "[data-bonus-paid]"], ["envy_paid_cents", "[data-envy-paid]"]].forEach(function (f) {
          var input = r.querySelector(f[1]);
          if (input) { entry[f[0]] = c.typed(input.value) || 0; }
        });
        return entry;
      });
      if (side.length) { answer.side = side; }
      c.submit(answer);
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
        // The letters are the words' initials in the page's language (answer.html).
        if (key === panel.dataset.keyTake && current !== null) { add(current, "take"); return true; }
        if (key === panel.dataset.keyPay && current !== null) { pay(current); return true; }
        if (key === panel.dataset.keyBanker && bankerInput) { bankerInput.focus(); return true; }
        if (event.key === "Backspace") { order.pop(); render(); return true; }
        if (event.key === "Enter") { send(); return true; }
        return false;
      }
    };
  }

  function roundStep(box, c) {
    var step = box.dataset.step;
    // The steps' names are the kinds' own (the first is the action drill's): from the page.
    var steps = box.querySelector("[data-steps]").dataset.steps.split(" ");
    if (step === steps[0]) { return c.seats(box, c.submit); }
    if (step === steps[1]) {
      return c.picker(box, function (front) { c.submit({ front: front }); });
    }
    return roundSettle(box, c);
  }

  window.PaiGow.kinds["round"] = roundStep;
})();
