// The game page's chat panel (chat/templates/chat/partials/panel.html).
//
// The panel is a live fragment (data-live="chat"): live.js refreshes it when the
// socket says the game's chat changed, when the socket opens and on its timer.
// This file adds what only the chat needs:
// - when the board is swapped (the game moved on: a vote may have opened or
//   closed), the panel is fetched again, so it shows itself closed or open;
// - a refused message (400, 409, 429...) still swaps the panel, which says why;
// - the list of messages stays scrolled to the newest, unless the reader
//   scrolled up to read older ones.
(function () {
  "use strict";

  var NEAR_BOTTOM_PX = 48;

  function panel() {
    return document.getElementById("chat");
  }

  function list() {
    var element = panel();
    return element ? element.querySelector(".chat-messages") : null;
  }

  function atBottom(element) {
    return element.scrollHeight - element.scrollTop - element.clientHeight <= NEAR_BOTTOM_PX;
  }

  function toBottom() {
    var element = list();
    if (element) element.scrollTop = element.scrollHeight;
  }

  var followNewest = true;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target) return;
    if (target.id === "chat") {
      var refused = event.detail.xhr && event.detail.xhr.status >= 400 && event.detail.xhr.status < 500;
      if (refused && /id="chat"/.test(event.detail.serverResponse || "")) {
        event.detail.shouldSwap = true;
        event.detail.isError = false;
      }
      var messages = list();
      followNewest = !messages || atBottom(messages);
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target) return;
    if (target.id === "board") {
      var chat = panel();
      if (chat && window.htmx) window.htmx.trigger(chat, "fabula:refresh");
    } else if (target.id === "chat") {
      var sent = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
      if (followNewest || sent) toBottom();
    }
  });

  document.addEventListener("DOMContentLoaded", toBottom);
})();
