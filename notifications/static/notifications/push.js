/* The notification settings' "Notify this device when it is my turn" switch (notifications.push).
   Registers the service worker (/sw.js), asks for the permission on the click (never before),
   subscribes with the site's VAPID public key and posts the subscription; off unsubscribes. */
(function () {
  "use strict";
  const box = document.getElementById("push-settings");
  if (!box) return;
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  const toggle = document.getElementById("push-switch");
  const status = document.getElementById("push-status");
  box.hidden = false;

  function say(text) {
    status.textContent = text;
  }

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
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response;
    });
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function show(on) {
    toggle.checked = on;
    say(on ? box.dataset.on : box.dataset.off);
  }

  const ready = navigator.serviceWorker
    .register(box.dataset.worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready);

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
      work = Notification.requestPermission().then((permission) => {
        if (permission !== "granted") {
          show(false);
          say(box.dataset.denied);
          return;
        }
        return ready
          .then((registration) =>
            registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) })
          )
          .then((subscription) => post(box.dataset.subscribe, subscription.toJSON()))
          .then(() => show(true));
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
})();
