// The settlement drill: mark each seat win, push or lose; a win takes the amount paid
// (sent as typed: the server reads it in the page's language, web/platform/money_input.py).
(function () {
  "use strict";

  function settlement(box, c) {
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
          entry.paid_cents = c.typed(row.querySelector("[data-paid]").value);
        }
        sidePaid(row, entry, c);
        return entry;
      });
      c.submit({ positions: positions });
    });
    return { key: function () { return false; } };
  }

  // A seat's side bet and Envy paid (blank is 0: most side bets lose).
  function sidePaid(row, entry, c) {
    [["bonus_paid_cents", "[data-bonus-paid]"], ["envy_paid_cents", "[data-envy-paid]"]].forEach(function (f) {
      var input = row.querySelector(f[1]);
      if (input) { entry[f[0]] = c.typed(input.value) || 0; }
    });
    return entry;
  }

  window.PaiGow.kinds["settlement"] = settlement;
})();
