// Moving a card between a hand of seven and the two-card front, shared by the
// drill page and the player's game: a picked card goes to the front (at most two),
// a front card goes back to its own place among the seven.
(function () {
  "use strict";

  window.PaiGowFront = {
    toggle: function (pick, front, hand, picks) {
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
    }
  };
})();
