// The settlement drill: mark each seat win, push or lose; a win takes the amount paid.
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
          entry.paid_cents = c.parseCents(row.querySelector("[data-paid]").value);
        }
        return entry;
      });
      c.submit({ positions: positions });
    });
    return { key: function () { return false; } };
  }

  window.PaiGow.kinds["settlement"] = settlement;
})();
