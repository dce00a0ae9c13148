// The hand-reading drill: a category, or A / B / copy.
(function () {
  "use strict";

  window.PaiGow.kinds["hand-reading"] = function (box, c) {
    return c.choices(box, c.submit);
  };
})();
