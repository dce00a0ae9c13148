// The reference pages: a Print button, and the 53-card grid that fills the look-up
// form. The form works without this script (type the cards); the grid only helps.
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  var grid = document.getElementById("card-grid");
  var input = document.getElementById("lookup-cards");
  if (!grid || !input) { return; }
  var HAND = 7;
  var count = document.getElementById("card-grid-count");
  var buttons = Array.prototype.slice.call(grid.querySelectorAll("button[data-card]"));
  var byCard = {};
  buttons.forEach(function (b) { byCard[b.dataset.card.toUpperCase()] = b; });

  // Read the typed cards in the grid's notation ("10h" and "joker" included).
  function typed() {
    return input.value.split(/[\s,]+/).filter(Boolean).map(function (t) {
      var u = t.toUpperCase();
      if (u === "JOKER") { return "JK"; }
      if (u.indexOf("10") === 0) { u = "T" + u.slice(2); }
      return u;
    });
  }

  function canonical(key) { return byCard[key] ? byCard[key].dataset.card : key; }

  function show() {
    var chosen = typed();
    buttons.forEach(function (b) {
      var on = chosen.indexOf(b.dataset.card.toUpperCase()) >= 0;
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    // The words come from the page (look_up.html, data-text-*), in the reader's language.
    count.textContent = window.PaiGow.format(count.dataset.textChosen || "", { n: chosen.length, total: HAND });
  }

  grid.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-card]");
    if (!button) { return; }
    var key = button.dataset.card.toUpperCase();
    var chosen = typed();
    var at = chosen.indexOf(key);
    if (at >= 0) {
      chosen.splice(at, 1);
    } else if (chosen.length < HAND) {
      chosen.push(key);
    } else {
      count.textContent = count.dataset.textFull || "";
      return;
    }
    input.value = chosen.map(canonical).join(" ");
    show();
  });

  document.getElementById("card-grid-clear").addEventListener("click", function () {
    input.value = "";
    show();
    input.focus();
  });

  input.addEventListener("input", show);
  grid.hidden = false;
  show();
})();
