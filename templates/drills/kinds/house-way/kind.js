// The house-way drill: pick the banker's two front cards.
(function () {
  "use strict";

  window.PaiGow.kinds["house-way"] = function (box, c) {
    return c.picker(box, function (front) { c.submit({ front: front }); });
  };
})();
