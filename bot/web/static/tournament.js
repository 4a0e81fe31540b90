// A tournament page: while the tournament runs, ask every few seconds whether anything changed; reload if so.
(function () {
  "use strict";
  var body = document.body, base = location.pathname.replace(/\/+$/, "");
  function poll() {
    fetch(base + "/data.json").then(function (r) { return r.json(); }).then(function (now) {
      if (now.version !== body.getAttribute("data-version")) { location.reload(); return; }
      if (now.running) { setTimeout(poll, body.getAttribute("data-poll") * 1000); }
    });
  }
  if (body.getAttribute("data-running") === "1") { setTimeout(poll, body.getAttribute("data-poll") * 1000); }
})();
