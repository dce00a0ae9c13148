/* The printable report's Print button: shown only when scripts run (without them the
   browser's own Print command does the same). */
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
});
