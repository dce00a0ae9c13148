/* A table that scrolls sideways inside its box says so (the group overview's class table,
   docs/dashboards.md): while more columns lie to the right, a fading shadow on the box's
   right edge and the sentence above it; once scrolled, a shadow beside the sticky name
   column. Without scripts the box still scrolls; only the hint is missing. */
(function () {
  function update(frame) {
    var box = frame.querySelector("[data-scroll-box]");
    if (!box) { return; }
    var room = box.scrollWidth - box.clientWidth;
    var scrolls = room > 1;
    frame.classList.toggle("scrolls", scrolls);
    frame.classList.toggle("more-right", scrolls && box.scrollLeft < room - 1);
    frame.classList.toggle("more-left", scrolls && box.scrollLeft > 1);
    var hint = frame.querySelector("[data-scroll-hint-text]");
    if (hint) { hint.hidden = !scrolls; }
  }
  function all() { document.querySelectorAll("[data-scroll-hint]").forEach(update); }
  document.querySelectorAll("[data-scroll-hint]").forEach(function (frame) {
    var box = frame.querySelector("[data-scroll-box]");
    if (box) { box.addEventListener("scroll", function () { update(frame); }, {passive: true}); }
  });
  window.addEventListener("resize", all);
  window.addEventListener("load", all);
  all();
}());
