// The progress bar of a background job (the manager's house-way check, comparison and
// simulation): polls the job's small JSON state every second and a half, moves the bar,
// and reloads the page when the job is over, so the server draws the report. Without
// script the page shows the state and a Refresh link. No inline scripts: the CSP forbids them.
(function () {
  "use strict";

  function watch(box) {
    var url = box.getAttribute("data-job-url");
    var bar = box.querySelector("progress");
    var percent = box.querySelector(".job-percent");
    var message = box.querySelector(".job-message");
    var failures = 0;

    function poll() {
      PaiGow.request(url, "GET").then(function (reply) {
        if (!reply.ok) {
          failures += 1;
          if (failures < 5) { window.setTimeout(poll, 3000); }
          return;
        }
        failures = 0;
        var state = reply.data || {};
        if (bar && typeof state.percent === "number") {
          bar.value = state.percent;
          bar.textContent = state.percent + "%";
        }
        if (percent && typeof state.percent === "number") { percent.textContent = state.percent + "%"; }
        if (message && state.message) { message.textContent = state.message; }
        if (state.done) {
          window.location.reload();
          return;
        }
        window.setTimeout(poll, 1500);
      }, function () {
        failures += 1;
        if (failures < 5) { window.setTimeout(poll, 3000); }
      });
    }
    window.setTimeout(poll, 1000);
  }

  document.querySelectorAll("[data-job-url]").forEach(watch);
})();
