// Storyteller's drawn and sung clues: a drawing pad (pointer and touch, colours, undo) and a sound
// recorder (MediaRecorder, at most 20 s, played back before sending) on the clue form. On submit,
// the drawing (PNG, canvas.toBlob) or the recording is uploaded first (fetch, with the page's CSRF
// token), then the form is sent with the upload's id in its `media` field.
// No inline script or handler: everything is bound from here (the pages' CSP allows no inline code).
(function () {
  "use strict";

  var MAX_SECONDS = 20;
  var pads = new WeakMap();      // canvas -> pad state
  var recorders = new WeakMap(); // fieldset -> recorder state
  var ready = new WeakSet();     // forms whose media is uploaded: let their next submit through

  // --- the drawing pad ----------------------------------------------------------------

  function padOf(fieldset) {
    var canvas = fieldset.querySelector("canvas");
    if (!canvas) return null;
    var pad = pads.get(canvas);
    if (pad) return pad;
    pad = { canvas: canvas, strokes: [], colour: "#222222", current: null, touched: 0 };
    pads.set(canvas, pad);
    redraw(pad);

    function point(event) {
      var box = canvas.getBoundingClientRect();
      return [
        (event.clientX - box.left) * (canvas.width / box.width),
        (event.clientY - box.top) * (canvas.height / box.height),
      ];
    }
    function start(event) {
      pad.current = { colour: pad.colour, points: [point(event)] };
      pad.strokes.push(pad.current);
      pad.touched = Date.now();
      redraw(pad);
    }
    function move(event) {
      if (!pad.current) return;
      pad.current.points.push(point(event));
      redraw(pad);
    }
    function end() {
      pad.current = null;
    }
    if (window.PointerEvent) {
      canvas.addEventListener("pointerdown", function (event) {
        event.preventDefault();
        if (canvas.setPointerCapture) canvas.setPointerCapture(event.pointerId);
        start(event);
      });
      canvas.addEventListener("pointermove", function (event) {
        if (pad.current) event.preventDefault();
        move(event);
      });
      canvas.addEventListener("pointerup", end);
      canvas.addEventListener("pointercancel", end);
    } else {
      canvas.addEventListener("touchstart", function (event) {
        event.preventDefault();
        start(event.changedTouches[0]);
      }, { passive: false });
      canvas.addEventListener("touchmove", function (event) {
        event.preventDefault();
        move(event.changedTouches[0]);
      }, { passive: false });
      canvas.addEventListener("touchend", end);
      canvas.addEventListener("mousedown", start);
      canvas.addEventListener("mousemove", move);
      window.addEventListener("mouseup", end);
    }
    return pad;
  }

  function redraw(pad) {
    var context = pad.canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, pad.canvas.width, pad.canvas.height);
    context.lineCap = "round";
    context.lineJoin = "round";
    context.lineWidth = 5;
    pad.strokes.forEach(function (stroke) {
      var points = stroke.points;
      context.strokeStyle = stroke.colour;
      context.fillStyle = stroke.colour;
      if (points.length === 1) {
        context.beginPath();
        context.arc(points[0][0], points[0][1], 2.5, 0, 2 * Math.PI);
        context.fill();
        return;
      }
      context.beginPath();
      context.moveTo(points[0][0], points[0][1]);
      for (var i = 1; i < points.length; i++) context.lineTo(points[i][0], points[i][1]);
      context.stroke();
    });
  }

  // --- the sound recorder ----------------------------------------------------------------

  function recorderOf(fieldset) {
    var state = recorders.get(fieldset);
    if (!state) {
      state = { blob: null, recorder: null, timer: null, touched: 0 };
      recorders.set(fieldset, state);
    }
    return state;
  }

  function preferredType() {
    var types = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/mp4"];
    if (!window.MediaRecorder || !MediaRecorder.isTypeSupported) return "";
    for (var i = 0; i < types.length; i++) if (MediaRecorder.isTypeSupported(types[i])) return types[i];
    return "";
  }

  function record(fieldset) {
    var state = recorderOf(fieldset);
    var timer = fieldset.querySelector("[data-timer]");
    if (!navigator.mediaDevices || !window.MediaRecorder) {
      showError(fieldset, fieldset.dataset.unsupported || "Recording is not possible in this browser.");
      return;
    }
    navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
      var type = preferredType();
      var recorder = type ? new MediaRecorder(stream, { mimeType: type }) : new MediaRecorder(stream);
      var chunks = [];
      var started = Date.now();
      state.recorder = recorder;
      recorder.addEventListener("dataavailable", function (event) {
        if (event.data && event.data.size) chunks.push(event.data);
      });
      recorder.addEventListener("stop", function () {
        clearInterval(state.timer);
        stream.getTracks().forEach(function (track) { track.stop(); });
        state.blob = new Blob(chunks, { type: recorder.mimeType || type || "audio/webm" });
        state.touched = Date.now();
        var playback = fieldset.querySelector("[data-playback]");
        playback.src = URL.createObjectURL(state.blob);
        playback.hidden = false;
        fieldset.querySelector("[data-discard]").hidden = false;
        fieldset.querySelector("[data-record]").disabled = false;
        fieldset.querySelector("[data-stop]").disabled = true;
      });
      recorder.start(250);
      fieldset.querySelector("[data-record]").disabled = true;
      fieldset.querySelector("[data-stop]").disabled = false;
      state.timer = setInterval(function () {
        var seconds = (Date.now() - started) / 1000;
        if (timer) timer.textContent = Math.floor(seconds) + " / " + MAX_SECONDS + " s";
        // Stopped a little early: the container's length must stay within the limit.
        if (seconds >= MAX_SECONDS - 0.3 && recorder.state === "recording") recorder.stop();
      }, 100);
    }).catch(function (error) {
      showError(fieldset, String(error && error.message ? error.message : error));
    });
  }

  // --- the clue form ---------------------------------------------------------------------------

  function showError(inside, message) {
    var box = inside.closest("[data-clue-media-form]");
    var slot = box && box.querySelector("[data-media-error]");
    if (slot) {
      slot.textContent = message;
      slot.hidden = !message;
    }
  }

  function chosenMedia(box) {
    var padSet = box.querySelector("[data-drawing-pad]");
    var soundSet = box.querySelector("[data-sound-recorder]");
    var pad = padSet ? padOf(padSet) : null;
    var sound = soundSet ? recorderOf(soundSet) : null;
    var drawing = pad && pad.strokes.length ? pad : null;
    var recorded = sound && sound.blob ? sound : null;
    if (drawing && recorded) return drawing.touched >= recorded.touched ? { pad: drawing } : { sound: recorded };
    if (drawing) return { pad: drawing };
    if (recorded) return { sound: recorded };
    return null;
  }

  function blobOf(choice) {
    if (choice.sound) return Promise.resolve({ blob: choice.sound.blob, name: "clue-sound" });
    return new Promise(function (resolve, reject) {
      choice.pad.canvas.toBlob(function (blob) {
        if (blob) resolve({ blob: blob, name: "clue-drawing.png" });
        else reject(new Error("The drawing could not be saved."));
      }, "image/png");
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var box = form.querySelector && form.querySelector("[data-clue-media-form]");
    if (!box) return;
    if (ready.has(form)) {
      ready.delete(form);
      return; // uploaded: on to htmx (or the plain post)
    }
    var field = form.querySelector("[data-clue-media]");
    var choice = chosenMedia(box);
    if (!choice) {
      if (box.hasAttribute("data-media-required")) {
        event.preventDefault();
        event.stopImmediatePropagation();
        showError(box, box.dataset.requiredMessage || "Draw or record your clue first.");
      } else if (field) {
        field.value = "";
      }
      return;
    }
    // Stopped here, in the capture phase: htmx sees the form only once the upload is done.
    event.preventDefault();
    event.stopImmediatePropagation();
    showError(box, "");
    var button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    blobOf(choice).then(function (file) {
      var body = new FormData();
      body.append("file", file.blob, file.name);
      return fetch(box.dataset.upload, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-CSRFToken": token ? token.value : "" },
      });
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
        return data;
      });
    }).then(function (data) {
      field.value = String(data.id);
      ready.add(form);
      if (button) button.disabled = false;
      if (form.requestSubmit) form.requestSubmit(button || undefined);
      else form.submit();
    }).catch(function (error) {
      if (button) button.disabled = false;
      showError(box, error.message || String(error));
    });
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("button");
    if (!target) return;
    var padSet = target.closest("[data-drawing-pad]");
    if (padSet) {
      var pad = padOf(padSet);
      if (target.hasAttribute("data-colour")) {
        pad.colour = target.getAttribute("data-colour");
        padSet.querySelectorAll("[data-colour]").forEach(function (swatch) {
          swatch.setAttribute("aria-pressed", swatch === target ? "true" : "false");
        });
      } else if (target.hasAttribute("data-undo")) {
        pad.strokes.pop();
        redraw(pad);
      } else if (target.hasAttribute("data-clear")) {
        pad.strokes = [];
        redraw(pad);
      }
      return;
    }
    var soundSet = target.closest("[data-sound-recorder]");
    if (soundSet) {
      var state = recorderOf(soundSet);
      if (target.hasAttribute("data-record")) record(soundSet);
      else if (target.hasAttribute("data-stop") && state.recorder && state.recorder.state === "recording") {
        state.recorder.stop();
      } else if (target.hasAttribute("data-discard")) {
        state.blob = null;
        var playback = soundSet.querySelector("[data-playback]");
        playback.removeAttribute("src");
        playback.hidden = true;
        target.hidden = true;
      }
    }
  });

  // Pads drawn on before any click (a pointer down) need their state: bind them as they appear.
  function bindPads(root) {
    (root || document).querySelectorAll("[data-drawing-pad]").forEach(padOf);
  }
  document.addEventListener("DOMContentLoaded", function () { bindPads(document); });
  document.addEventListener("htmx:afterSettle", function (event) { bindPads(event.target); });
  if (document.readyState !== "loading") bindPads(document);
})();
