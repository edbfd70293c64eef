// Countdown for every <time data-deadline>. Live updates join this file later.
(function () {
  "use strict";
  function format(ms) {
    if (ms <= 0) return "0:00";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600),
        m = Math.floor((s % 3600) / 60), sec = s % 60;
    if (d > 0) return d + "d " + h + "h";
    if (h > 0) return h + "h " + String(m).padStart(2, "0") + "m";
    return m + ":" + String(sec).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(at)) el.textContent = format(at - Date.now());
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
})();
