// Shared behaviour for every page. No inline scripts: a later CSP forbids them.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="csrf-token"]');
  var token = meta ? meta.getAttribute("content") : null;
  var SAFE = /^(GET|HEAD|OPTIONS|TRACE)$/i;

  // Send the CSRF token with every state-changing fetch to this site, so
  // Flask-WTF accepts JavaScript POSTs just like form POSTs.
  if (token && window.fetch) {
    var originalFetch = window.fetch.bind(window);
    window.fetch = function (input, init) {
      init = init || {};
      var method = init.method || (input instanceof Request ? input.method : "GET");
      var url = new URL(input instanceof Request ? input.url : input, window.location.href);
      if (!SAFE.test(method) && url.origin === window.location.origin) {
        var headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
        headers.set("X-CSRFToken", token);
        init.headers = headers;
      }
      return originalFetch(input, init);
    };
  }

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
