/* The browser's time zone for the pages that show times (trainer/web/platform/time_zones.py), in a
   cookie; not loaded on the drill page, which shows none. */
try { document.cookie = "tz=" + encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone) + ";path=/;max-age=31536000;SameSite=Lax"; } catch (e) {}
