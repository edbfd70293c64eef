/* Web Push on this device (notifications.push), in two places:
   - the notification settings' "Notify this device when it is my turn" switch (#push-settings);
   - the offer on the page of a game that has started (#push-offer): a clear button, never on the
     first page load, and not again once the person said "Not now" on this device.
   The browser's permission prompt comes only from a click. The service worker (/sw.js) is
   registered when the person turns push on (or on the settings page); the subscription is posted
   to the site. An endpoint another account of this site holds is refused (409 endpoint_taken):
   this browser then asks its push service for a fresh one, for this account. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;

  const DISMISSED = "fabula-push-offer-dismissed";

  function csrfToken() {
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    }).then((response) => {
      if (response.ok) return response;
      return response
        .json()
        .catch(() => ({}))
        .then((answer) => {
          const error = new Error("HTTP " + response.status);
          error.code = answer && answer.error ? answer.error.code : "";
          throw error;
        });
    });
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function registered(box) {
    return navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).then(() => navigator.serviceWorker.ready);
  }

  function subscribe(registration, box, retry) {
    return registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) })
      .then((subscription) =>
        post(box.dataset.subscribe, subscription.toJSON()).catch((error) => {
          if (retry && error.code === "endpoint_taken") {
            return subscription.unsubscribe().then(() => subscribe(registration, box, false));
          }
          throw error;
        })
      );
  }

  // Permission asked here, from the person's click; then this device subscribed. Resolves to false when refused.
  function turnOn(box) {
    return Notification.requestPermission().then((permission) => {
      if (permission !== "granted") return false;
      return registered(box)
        .then((registration) => subscribe(registration, box, true))
        .then(() => true);
    });
  }

  function settingsSwitch(box) {
    const toggle = document.getElementById("push-switch");
    const status = document.getElementById("push-status");
    box.hidden = false;

    function say(text) {
      status.textContent = text;
    }

    function show(on) {
      toggle.checked = on;
      say(on ? box.dataset.on : box.dataset.off);
    }

    const ready = registered(box);
    ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => {
        // Subscribed here before: tell the server again (it may have forgotten a renewed endpoint).
        if (subscription && Notification.permission === "granted") {
          return post(box.dataset.subscribe, subscription.toJSON()).then(() => show(true));
        }
        show(false);
      })
      .catch(() => show(false))
      .finally(() => {
        toggle.disabled = false;
      });

    toggle.addEventListener("change", () => {
      toggle.disabled = true;
      const wanted = toggle.checked;
      let work;
      if (wanted) {
        work = turnOn(box).then((on) => {
          show(on);
          if (!on) say(box.dataset.denied);
        });
      } else {
        work = ready
          .then((registration) => registration.pushManager.getSubscription())
          .then((subscription) => {
            if (!subscription) return;
            return post(box.dataset.unsubscribe, { endpoint: subscription.endpoint }).then(() => subscription.unsubscribe());
          })
          .then(() => show(false));
      }
      work
        .catch(() => {
          toggle.checked = !wanted;
          say(box.dataset.failed);
        })
        .finally(() => {
          toggle.disabled = false;
        });
    });
  }

  function gameOffer(box) {
    const accept = document.getElementById("push-offer-accept");
    const dismiss = document.getElementById("push-offer-dismiss");
    const status = document.getElementById("push-offer-status");
    let dismissed = false;
    try {
      dismissed = window.localStorage.getItem(DISMISSED) === "1";
    } catch (error) {
      dismissed = false;
    }
    if (dismissed || Notification.permission === "denied") return;
    // Only where this device is not subscribed yet (looked up without registering anything).
    navigator.serviceWorker
      .getRegistration("/")
      .then((registration) => (registration ? registration.pushManager.getSubscription() : null))
      .then((subscription) => {
        if (!subscription || Notification.permission !== "granted") box.hidden = false;
      })
      .catch(() => {
        box.hidden = false;
      });

    accept.addEventListener("click", () => {
      accept.disabled = dismiss.disabled = true;
      turnOn(box)
        .then((on) => {
          status.textContent = on ? box.dataset.on : box.dataset.denied;
          if (on) document.getElementById("push-offer-actions").remove();
        })
        .catch(() => {
          status.textContent = box.dataset.failed;
        })
        .finally(() => {
          accept.disabled = dismiss.disabled = false;
        });
    });

    dismiss.addEventListener("click", () => {
      try {
        window.localStorage.setItem(DISMISSED, "1");
      } catch (error) {
        /* private mode: asked again next time */
      }
      box.hidden = true;
    });
  }

  const settingsBox = document.getElementById("push-settings");
  if (settingsBox) settingsSwitch(settingsBox);
  const offerBox = document.getElementById("push-offer");
  if (offerBox) gameOffer(offerBox);
})();
