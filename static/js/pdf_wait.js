// The "Your PDF is being prepared" page (templates/reference/pdf_wait.html): asks the
// server every few seconds (JSON, 202 while printing) instead of a timed refresh, and when
// the PDF is printed shows "Your PDF is ready" with its link and starts the download once.
// Without script the page keeps its "Ask again now" link. No inline scripts: the CSP.
(function () {
  "use strict";

  var box = document.querySelector("[data-pdf-wait]");
  if (!box || !window.PaiGow) { return; }
  var url = box.getAttribute("data-pdf-wait");
  var every = (parseInt(box.getAttribute("data-seconds"), 10) || 3) * 1000;
  var failures = 0;
  var started = false;

  function ready(download) {
    if (started) { return; }
    started = true;
    box.querySelector(".pdf-waiting").hidden = true;
    var done = box.querySelector(".pdf-ready");
    var link = done.querySelector("a[download]");
    if (download) { link.setAttribute("href", download); }
    done.hidden = false;
    document.title = done.querySelector("h1").textContent + " \u00b7 " + document.title.split(" \u00b7 ").pop();
    done.querySelector("h1").focus();
    window.location.assign(link.getAttribute("href"));  // an attachment: this page stays
  }

  function poll() {
    PaiGow.request(url, "GET").then(function (reply) {
      var state = reply.data || {};
      if (reply.ok && state.ready) { ready(state.download); return; }
      if (reply.status !== 202) {
        // A refusal or a failed print: the server's page says it in words.
        window.location.assign(url);
        return;
      }
      if (state.again) { url = state.again; }
      window.setTimeout(poll, every);
    }, function () {
      failures += 1;
      if (failures < 5) { window.setTimeout(poll, every * 2); }
    });
  }
  window.setTimeout(poll, every);
})();
