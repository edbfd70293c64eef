{% load i18n static %}/* Fabula's service worker (notifications.views.service_worker, served at /sw.js).
   It shows "your turn" pushes (notifications.push) and opens the game on a tap. Nothing cached. */
"use strict";

const ICON = "{% static 'notifications/icons/icon-192.png' %}";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function sameSiteUrl(url) {
  try {
    const parsed = new URL(url || "/", self.location.origin);
    return parsed.origin === self.location.origin ? parsed.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const options = {
    body: data.body || "",
    icon: ICON,
    badge: ICON,
    data: { url: sameSiteUrl(data.url) },
  };
  if (data.tag) {
    // One notification per game: a newer one replaces it, and still rings.
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Fabula", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSiteUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      for (const client of windows) {
        if ("navigate" in client && "focus" in client) {
          return client.focus().then(() => client.navigate(url));
        }
      }
      return self.clients.openWindow(url);
    })
  );
});
