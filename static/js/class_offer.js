// The "join the class" offer on a trainee's home and drills pages (issue 31): ask now and
// then whether the group's class runs, and show the link while it does. Never on the drill
// page: its question and answer requests stay as they were.
(function () {
  "use strict";

  var box = document.getElementById("class-offer");
  if (!box || !window.fetch) {
    return;
  }
  var EVERY_MS = 15000;
  var token = null;

  function ask() {
    var headers = { "Accept": "application/json" };
    if (token) { headers["If-None-Match"] = '"' + token + '"'; }
    fetch(box.dataset.offerUrl, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304 || !response.ok) { return; }
        token = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "") || null;
        return response.json().then(function (data) { box.hidden = !data["class"]; });
      })
      .catch(function () { /* offline: ask again later */ })
      .then(function () { setTimeout(ask, EVERY_MS); });
  }

  ask();
})();
