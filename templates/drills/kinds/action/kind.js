// The action drill: click the seat that gets the first pile (or press 1-7).
(function () {
  "use strict";

  window.PaiGow.kinds["action"] = function (box, c) {
    return c.seats(box, c.submit);
  };
})();
