// The bonus drill: the dealer's cue (yes / no by their initials, data-key), the bonus hand, the amount paid; Enter pays.
(function () {
  "use strict";

  window.PaiGow.kinds["bonus"] = function (box, c) {
    var form = box.querySelector("[data-bonus-form]");
    var paid = form.querySelector("[data-paid]");

    function answer() {
      var cue = form.querySelector("[data-qualifies]:checked");
      var category = form.querySelector("[data-category]:checked");
      return {
        qualifies: cue ? cue.value === "yes" : null,
        category: category ? category.value : null,
        paid_cents: c.typed(paid.value)
      };
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      c.submit(answer());
    });
    return {
      key: function (event) {
        var key = event.key.toLowerCase();
        var radio = form.querySelector('[data-qualifies][data-key="' + key.replace(/["\\]/g, "") + '"]');
        if (radio) {
          radio.checked = true;
          radio.focus({ preventScroll: true });
          return true;
        }
        if (event.key === "Enter") {
          c.submit(answer());
          return true;
        }
        return false;
      }
    };
  };
})();
