// The browser's own time zone into the sign-up form's hidden field (issue 38): the server checks the name and
// keeps UTC for anything it does not know. Without JavaScript the field stays empty: UTC, changeable on the profile.
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    zone = "";
  }
  document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
    if (!input.value) {
      input.value = zone;
    }
  });
})();
