// The foul check: legal or fouled (the words' initials, data-key); under the house-way policy a fouled hand is
// then reset by picking its new front.
(function () {
  "use strict";

  function foulCheck(box, c) {
    var simple = c.choices(box, c.submit);
    var resetButton = box.querySelector("[data-reset]");
    var resetBox = box.querySelector("[data-reset-picker]");
    var reset = null;
    if (resetButton) {
      resetButton.addEventListener("click", function () {
        resetButton.classList.add("chosen");
        resetBox.hidden = false;
        reset = c.picker(resetBox, function (front) { c.submit({ fouled: true, front: front }); });
        resetBox.querySelector(".card").focus({ preventScroll: true });
      });
    }
    return {
      key: function (event) {
        if (reset) { return reset.key(event); }
        if (resetButton && event.key.toLowerCase() === resetButton.dataset.key) {
          resetButton.click();
          return true;
        }
        return simple.key(event);
      }
    };
  }

  window.PaiGow.kinds["foul-check"] = foulCheck;
})();
