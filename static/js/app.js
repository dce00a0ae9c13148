// Shared behaviour for every page (lib.js holds the shared helpers). No inline
// scripts: the CSP forbids them.
(function () {
  "use strict";

  // Stop a double tap on a slow tablet from sending a form twice.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.submitted === "yes") {
      event.preventDefault();
      return;
    }
    form.dataset.submitted = "yes";
  });
})();
