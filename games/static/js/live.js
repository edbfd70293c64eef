// Live pages (DESIGN.md: notify, then fetch).
//
// Every element with data-live re-renders itself from its own URL on the
// "fabula:refresh" event (hx-get + hx-trigger in its template); this file only
// decides *when*. One WebSocket per page says that something changed (ids and
// versions, never content; a game page's socket first says its game's version,
// "hello"); the page then fetches its own fragments over HTTP,
// rendered for this viewer. A game page's socket asks for its board too
// ("push=board", games/pushes.py): after each change it is sent the board the
// fetch would bring, made for this viewer, and the page fetches nothing.
// Nothing here is needed for the page to work: a page whose socket cannot
// connect still works by reload, and refreshes on a slow timer besides.
//
// Also: the countdown of every <time data-deadline>.
(function () {
  "use strict";

  var RECONNECT_FIRST_MS = 1000;   // first retry after a drop, doubled each time...
  var RECONNECT_MAX_MS = 30000;    // ...up to this
  var STABLE_MS = 10000;           // a socket open this long resets the backoff
  var SAFETY_REFRESH_MS = 30000;   // refresh everything this often, whatever the socket says
  var DEADLINE_POLL_MS = 2000;     // after a deadline passed, look this often...
  var DEADLINE_POLL_FOR_MS = 20000; // ...for this long, then leave it to the safety refresh

  // ---- Refreshing -----------------------------------------------------------

  function live(kind) {
    return document.querySelectorAll(kind ? '[data-live="' + kind + '"]' : "[data-live]");
  }

  // htmx queues a trigger that arrives while the element's request is in flight
  // and sends it once that one is done, so bursts cost at most one extra fetch.
  function refresh(element) {
    if (window.htmx) window.htmx.trigger(element, "fabula:refresh");
  }

  function refreshAll(kind) {
    live(kind).forEach(refresh);
  }

  function gameElement(gameId) {
    return document.querySelector('[data-live="game"][data-game="' + gameId + '"]');
  }

  // ---- Keeping what the viewer is doing across a refresh ---------------------
  //
  // The fragments swap with idiomorph ("morph"), which keeps the nodes that did
  // not change: no image reloads, focus and caret stay. It would still reset
  // what the viewer typed or ticked to what the server rendered (nothing), so
  // while the part they are working on is the same part (its data-key, e.g.
  // round-phase-act, did not change) their input is left alone. A new phase
  // brings a new data-key, and a fresh form.

  var USER_STATE = { value: true, checked: true, selected: true, open: true };

  // Idiomorph asks before it changes an attribute (or the state behind it);
  // false leaves it as the viewer set it.
  function mayUpdate(attribute, element) {
    if (!USER_STATE[attribute]) return true;
    if (element.type === "hidden" || element.type === "submit") return true;
    var box = element.closest("[data-key]");
    if (!box) return attribute !== "open";  // a <details> stays as the viewer left it
    return box.fabulaKeyBeforeSwap !== box.getAttribute("data-key");
  }

  function configureMorph() {
    if (window.Idiomorph) window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = mayUpdate;
  }

  function noteKeys(target) {
    target.querySelectorAll("[data-key]").forEach(function (box) {
      box.fabulaKeyBeforeSwap = box.getAttribute("data-key");
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.matches || !target.matches("[data-live]")) return;
    if (!document.body.contains(target)) {  // replaced meanwhile: nothing to update
      event.detail.shouldSwap = false;
      return;
    }
    // A refresh that was already on its way when the viewer's own action came
    // back may be older than what is shown: keep the newer.
    if (target.matches("[data-game]") && event.detail.requestConfig &&
        event.detail.requestConfig.verb === "get") {
      var incoming = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
      if (incoming && Number(incoming[1]) < Number(target.getAttribute("data-version"))) {
        event.detail.shouldSwap = false;
        return;
      }
    }
    noteKeys(target);
  });

  // ---- The viewer's own actions -----------------------------------------------
  //
  // A form on the board posts an action and swaps in the board its answer brings, at the
  // version the action made. The socket hears of that version too, most often before the
  // answer is in: fetching the board for it would only ask the server again for what is
  // on its way. So while a post to the board is in flight, its game's messages are only
  // noted; once the answer is in, the board is fetched if it is still older than the
  // newest of them (someone else acted meanwhile). An answer that never reports back
  // (its form replaced meanwhile, say) holds nothing up for more than ACTION_WAIT_MS.

  var ACTION_WAIT_MS = 10000;
  var acting = {};  // game id -> {posts: in flight, awaited: newest version heard meanwhile, timer}

  function postedBoard(event) {
    var target = event.detail.target;
    var config = event.detail.requestConfig;
    if (!target || !target.matches || !target.matches('[data-live="game"][data-game]')) return null;
    if (!config || config.verb !== "post") return null;
    return target.getAttribute("data-game");
  }

  function caughtUp(game) {
    var state = acting[game];
    if (!state) return;
    delete acting[game];
    clearTimeout(state.timer);
    var board = gameElement(game);
    if (board && state.awaited && Number(board.getAttribute("data-version")) < state.awaited) refresh(board);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var game = postedBoard(event);
    if (game === null) return;
    var state = acting[game] || (acting[game] = { posts: 0, awaited: 0, timer: null });
    state.posts += 1;
    clearTimeout(state.timer);
    state.timer = setTimeout(function () { caughtUp(game); }, ACTION_WAIT_MS);
  });

  // After the swap (or the failure): htmx fires it once for each request, whatever came of it.
  document.addEventListener("htmx:afterRequest", function (event) {
    var game = postedBoard(event);
    var state = game === null ? null : acting[game];
    if (!state) return;
    state.posts -= 1;
    if (state.posts <= 0) caughtUp(game);
  });

  // ---- The socket -----------------------------------------------------------

  var socket = null;
  var attempts = 0;
  var retryTimer = null;
  var openedAt = 0;
  var heard = {};  // game id -> newest version heard: one message reaches a page once per group it follows

  function socketUrl() {
    var params = [];
    var board = document.querySelector('[data-live="game"][data-game]');
    if (board) {
      params.push("game=" + encodeURIComponent(board.getAttribute("data-game")));
      if (window.htmx && window.htmx.swap) params.push("push=board");
    }
    if (live("lobby").length) params.push("lobby=1");
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + "/ws/live/" + (params.length ? "?" + params.join("&") : "");
  }

  function wanted() {
    // Signed-in pages follow the viewer's own group (My games, the bell).
    return live().length > 0 || document.body.hasAttribute("data-user");
  }

  function setState(state) {
    document.body.setAttribute("data-socket", state);
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (socket || !wanted() || !("WebSocket" in window)) return;
    setState("connecting");
    try {
      socket = new WebSocket(socketUrl());
    } catch (error) {
      socket = null;
      scheduleReconnect();
      return;
    }
    socket.onopen = function () {
      openedAt = Date.now();
      setState("open");
      // Whatever happened while we were away (or before this page's socket
      // joined its groups), the fragments' own URLs know it. A game's board
      // waits for the socket's first message, "hello", which says the game's
      // version now that the socket hears every later change: the board is
      // fetched only if it is older (a page just loaded most often is not).
      live().forEach(function (element) {
        if (!element.matches('[data-live="game"][data-game]')) refresh(element);
      });
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      handle(message);
    };
    // A refused handshake (a game this viewer may not follow, a foreign
    // Origin) looks like a drop to the browser: it backs off like one.
    socket.onclose = function () {
      socket = null;
      if (openedAt && Date.now() - openedAt > STABLE_MS) attempts = 0;
      openedAt = 0;
      setState("closed");
      scheduleReconnect();
    };
  }

  // Exponential backoff with jitter, so that a restarted server is not met by
  // every page at the same instant.
  function scheduleReconnect() {
    if (retryTimer || !wanted()) return;
    var ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * Math.pow(2, attempts));
    attempts += 1;
    retryTimer = setTimeout(connect, ceiling / 2 + Math.random() * ceiling / 2);
  }

  function reconnectNow() {
    if (socket) return;
    connect();
  }

  // A version of a game the socket spoke of: its board is fetched if it shows an older one. While the
  // viewer's own action is on its way, its answer is the board at the version it made, which the message
  // is most often about: whether to fetch is decided once it is in (caughtUp).
  function boardAt(game, version) {
    var board = gameElement(game);
    if (!board || Number(board.getAttribute("data-version")) >= version) return;
    var state = acting[game];
    if (state) state.awaited = Math.max(state.awaited, version);
    else refresh(board);
  }

  // The board the socket was sent for a version (push=board): swapped in as a fetch's answer would be, if it is
  // newer than the board shown. Its forms come without a CSRF token (a socket has none to give): they get the
  // page's own, which htmx sends as a header besides. While the viewer's own action is on its way, it is only
  // noted, as a "game.changed": the answer brings its version, and anything newer is fetched once it is in.
  function pushedBoard(message) {
    var board = gameElement(message.game);
    if (!board || Number(board.getAttribute("data-version")) >= message.version) return;
    var state = acting[message.game];
    if (state) {
      state.awaited = Math.max(state.awaited, message.version);
      return;
    }
    var token = pageToken();
    var html = message.html.split('name="csrfmiddlewaretoken" value=""').join(
      'name="csrfmiddlewaretoken" value="' + token + '"');
    noteKeys(board);
    // As htmx swaps a fetch's answer: the board's own swap (morph, its extension found from the board), and
    // htmx:afterSwap names the board as its target, as for a fetch (the table talk and the notices follow it).
    window.htmx.swap(board, html, { swapStyle: board.getAttribute("hx-swap") || "outerHTML" },
      { contextElement: board, eventInfo: { elt: board, target: board } });
  }

  function pageToken() {
    try {
      var token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
      return /^[A-Za-z0-9]+$/.test(token) ? token : "";
    } catch (error) {
      return "";
    }
  }

  function handle(message) {
    if (message.type === "hello") {
      heard[message.game] = Math.max(heard[message.game] || 0, message.version);
      boardAt(message.game, message.version);
    } else if (message.type === "game.changed" || message.type === "game.board") {
      if (heard[message.game] >= message.version) return;
      heard[message.game] = message.version;
      if (message.type === "game.board") pushedBoard(message);
      else boardAt(message.game, message.version);
      // The viewer's user group speaks of every game they sit in, the lobby
      // group of every open public game.
      refreshAll("mine");
      refreshAll("lobby");
    } else if (message.type === "notifications.changed") {
      refreshAll("bell");
    } else if (message.type === "chat.changed") {
      // The viewer's user group hears of the talk at every table they sit at: only this game's panel fetches.
      live("chat").forEach(function (panel) {
        if (panel.getAttribute("data-game") === String(message.game)) refresh(panel);
      });
    }
  }

  // ---- Deadlines --------------------------------------------------------------
  //
  // When a deadline passes, the beat task expires the phase a few seconds later,
  // in the Celery worker, whose message reaches this socket as any other does
  // (infrastructure.layers on the embedded default, Redis otherwise). A socket that was
  // reconnecting meanwhile misses it: so a page whose deadline passed still looks
  // for itself, every few seconds for a while.

  function checkDeadlines(now) {
    live().forEach(function (element) {
      var passed = null;
      element.querySelectorAll("time[data-deadline]").forEach(function (time) {
        var at = Date.parse(time.getAttribute("datetime"));
        if (!isNaN(at) && at <= now && (passed === null || at < passed)) passed = at;
      });
      if (passed === null || now - passed > DEADLINE_POLL_FOR_MS) return;
      if (now >= (element.fabulaDeadlineCheckAt || 0)) {
        element.fabulaDeadlineCheckAt = now + DEADLINE_POLL_MS;
        refresh(element);
      }
    });
  }

  // Days and hours, or hours and minutes, in the page's language ("23 t 59 min" in Danish, not "23h 59m");
  // under an hour, minutes and seconds as a clock.
  // The formatters are made when a countdown first needs one (making one loads the language's data: on a
  // slow phone a good part of the page's script time), and then kept.
  var LANG = document.documentElement.lang || undefined;
  var durations;  // undefined: not looked for yet; null: none in this browser
  var units = {};
  function durationFormat() {
    if (durations === undefined) {
      try {
        durations = window.Intl && Intl.DurationFormat ? new Intl.DurationFormat(LANG, { style: "narrow" }) : null;
      } catch (error) { durations = null; }
    }
    return durations;
  }
  function unitText(value, unit) {
    try {
      if (!units[unit]) units[unit] = new Intl.NumberFormat(LANG, { style: "unit", unit: unit, unitDisplay: "narrow" });
      return units[unit].format(value);
    } catch (error) {
      return value + unit.charAt(0);
    }
  }
  function twoUnits(first, firstUnit, second, secondUnit) {
    var durations = durationFormat();
    if (durations) {
      var parts = {};
      parts[firstUnit + "s"] = first;
      parts[secondUnit + "s"] = second;
      return durations.format(parts);
    }
    return unitText(first, firstUnit) + " " + unitText(second, secondUnit);
  }

  function format(ms) {
    if (ms <= 0) return "0:00";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600),
        m = Math.floor((s % 3600) / 60), sec = s % 60;
    if (d > 0) return twoUnits(d, "day", h, "hour");
    if (h > 0) return twoUnits(h, "hour", m, "minute");
    return m + ":" + String(sec).padStart(2, "0");
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(at)) el.textContent = format(at - now);
    });
    checkDeadlines(now);
  }

  // ---- Start ------------------------------------------------------------------

  // The countdowns and the socket start once the page has loaded and painted: the page comes with the
  // server's wording of the time left, and the socket's hello brings whatever changed meanwhile, so nothing
  // of theirs needs to hold up a slow phone's first paint of the table (it had cost it up to a second).
  // A picture slow to come holds up "load": the page starts anyway LOAD_WAIT_MS after its HTML is in.
  var LOAD_WAIT_MS = 3000;
  function afterLoad(start) {
    var started = false;
    function once() {
      if (started) return;
      started = true;
      start();
    }
    function soon() {
      if (window.requestIdleCallback) window.requestIdleCallback(once, { timeout: 200 });
      else setTimeout(once, 0);
    }
    if (document.readyState === "complete") soon();
    else window.addEventListener("load", soon, { once: true });
    setTimeout(once, LOAD_WAIT_MS);
  }

  document.addEventListener("DOMContentLoaded", function () {
    configureMorph();
    // A fragment arrives with the server's wording of the time left: count at once.
    document.addEventListener("htmx:afterSwap", function () { tick(); });
    afterLoad(function () {
      tick();
      setInterval(tick, 1000);
      connect();
    });
    setInterval(function () {
      if (!document.hidden) refreshAll();
    }, SAFETY_REFRESH_MS);
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) return;
      refreshAll();
      reconnectNow();
    });
    window.addEventListener("online", reconnectNow);
  });
})();
