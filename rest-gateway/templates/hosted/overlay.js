// Sail's hosted pages inside a partner's overlay (docs/hosted-sessions.md,
// "Embedding in an iframe"). Loaded only by pages that a partner's
// registered origins may frame. It does two things:
// - the close controls tell the partner's window the outcome, posting
//   {type: "sail.hosted", status: "completed" | "exited", connection_id?,
//   receipt_id?} to each registered origin only (a browser delivers a
//   message only when its target origin is the parent's own);
// - Tab and Shift+Tab wrap around inside the page, so focus stays in the
//   overlay instead of leaving for the partner's page behind it.
(function () {
  "use strict";
  var body = document.body;
  var framed = window.parent !== window;
  var origins = (body.getAttribute("data-sail-origins") || "").split(" ").filter(Boolean);

  function outcome() {
    var message = { type: "sail.hosted", status: body.getAttribute("data-sail-status") || "exited" };
    var connection = body.getAttribute("data-sail-connection-id");
    var receipt = body.getAttribute("data-sail-receipt-id");
    if (connection) { message.connection_id = connection; }
    if (receipt) { message.receipt_id = receipt; }
    return message;
  }

  var closers = document.querySelectorAll("[data-sail-close]");
  for (var i = 0; i < closers.length; i++) {
    // Opened in a window of its own, there is no overlay to close.
    if (!framed) { continue; }
    closers[i].hidden = false;
    closers[i].addEventListener("click", function () {
      var message = outcome();
      for (var j = 0; j < origins.length; j++) { window.parent.postMessage(message, origins[j]); }
    });
  }
  var others = document.querySelectorAll("[data-sail-unframed]");
  for (var k = 0; k < others.length; k++) { others[k].hidden = framed; }

  var focusable = "a[href], button, input, select, textarea, [tabindex]";
  document.addEventListener("keydown", function (event) {
    if (!framed || event.key !== "Tab") { return; }
    var all = Array.prototype.filter.call(document.querySelectorAll(focusable), function (el) {
      return !el.disabled && !el.hidden && el.type !== "hidden" && el.tabIndex >= 0 && el.getClientRects().length > 0;
    });
    if (all.length === 0) { return; }
    var first = all[0];
    var last = all[all.length - 1];
    var at = document.activeElement;
    if (event.shiftKey && (at === first || all.indexOf(at) < 0)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === last || all.indexOf(at) < 0)) {
      event.preventDefault();
      first.focus();
    }
  });
})();
