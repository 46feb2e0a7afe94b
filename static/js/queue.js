// Keyboard for the review queue. Every key mirrors a visible button, link or field, so the
// page works the same without this script (plain forms and links) and with htmx swaps.
(function () {
  "use strict";

  // Keys are text only in fields that take text; a focused neighbour radio still takes keys.
  function typing(target) {
    if (!target) return false;
    if (target.tagName === "INPUT") return !/^(radio|checkbox|button|submit)$/.test(target.type);
    return target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName);
  }

  function item() { return document.getElementById("queue-item"); }

  // Let the page settle (and its own requests go) before fetching the next item.
  var PREFETCH_DELAY_MS = 300;

  // htmx binds a swapped-in item's forms when it settles (20 ms later, longer on a busy
  // machine); a key pressed before that would post the form as a plain page load. Binding
  // again is a no-op for htmx once it is done.
  function press(selector) {
    var el = item() && item().querySelector(selector);
    if (!el || el.disabled) return false;
    if (window.htmx) window.htmx.process(el.closest("form") || el);
    el.click();
    return true;
  }

  function toggleHelp(force) {
    var help = document.getElementById("keys-help");
    var button = document.getElementById("keys-toggle");
    if (!help) return;
    var show = force === undefined ? help.hidden : force;
    help.hidden = !show;
    if (button) button.setAttribute("aria-expanded", String(show));
  }

  function pickedOriginal() {
    return item() && item().querySelector('input[name="duplicate_of"]:checked');
  }

  function flash(message) {
    var box = item() && item().querySelector("#queue-hint");
    if (!box) {
      box = document.createElement("p");
      box.id = "queue-hint";
      box.className = "alert alert-warn";
      box.setAttribute("role", "status");
      var bar = item() && item().querySelector(".verdict-bar");
      if (!bar) return;
      bar.prepend(box);
    }
    box.textContent = message;
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#keys-toggle")) toggleHelp();
  });

  document.addEventListener("keydown", function (event) {
    if (!item() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    var key = event.key;
    var handled = true;
    if (key === "k" || key === "e" || key === "o" || key === "u" || key === "s") {
      handled = press('button[data-key="' + key + '"]');
    } else if (key === "d") {
      if (pickedOriginal()) {
        handled = press('button[data-key="d"]');
      } else {
        var first = item().querySelector('input[name="duplicate_of"]');
        if (first) { first.focus(); flash("Pick the original with 1–9, then press d again."); }
        else flash("No neighbour to name as the original.");
      }
    } else if (/^[1-9]$/.test(key)) {
      var radio = item().querySelector('input[name="duplicate_of"][data-key="' + key + '"]');
      if (radio && !radio.disabled) { radio.checked = true; radio.focus(); } else handled = false;
    } else if (key === "Enter" && event.target.name === "duplicate_of") {
      handled = press('button[data-key="d"]');
    } else if (key === "n") {
      var note = item().querySelector("#note");
      if (note) note.focus(); else handled = false;
    } else if (key === "c") {
      var comment = item().querySelector("#comment-body");
      if (comment) {
        comment.scrollIntoView({ block: "center" });
        comment.focus({ preventScroll: true });
      } else handled = false;
    } else if (key === "j" || key === "ArrowRight") {
      handled = press("#queue-next");
    } else if (key === "p" || key === "ArrowLeft") {
      handled = press("#queue-prev");
    } else if (key === "?") {
      toggleHelp();
    } else if (key === "Escape") {
      // A duplicate verdict waiting for confirmation is cancelled: nothing was recorded.
      if (!press("#confirm-cancel")) toggleHelp(false);
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  });

  // The item a verdict moves on to, fetched while this one is read: {from, rank, version, html}.
  // A verdict names it (X-Queue-Held: rank@version); when the server agrees it answers with a
  // step (X-Queue-Step) holding only the header, the messages and a fresh "shown" time, which
  // are put into the held item before htmx swaps it in. Anything else is a full item as before.
  var held = null;
  var fetching = null;  // the rank of the item whose next one is on its way
  var named = null;  // what the verdict in flight named: a later fetch cannot take it away

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  function prefetch() {
    var spot = document.getElementById("queue-prefetch");
    var from = item() && item().dataset.rank;
    if (!spot || !from) return;
    if ((held && held.from === from) || fetching === from) return;  // in hand, or on its way
    fetching = from;
    fetch(spot.dataset.url, {
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-Queue-Prefetch": "1" },
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html || !item() || item().dataset.rank !== from) return;  // moved on meanwhile
        var next = parse(html).getElementById("queue-item");
        var version = next && next.querySelector('#verdict-form input[name="version"]');
        if (!version || next.dataset.rank !== spot.dataset.rank) return;
        held = { from: from, rank: next.dataset.rank, version: version.value, html: html };
        item().dataset.held = held.rank;  // for the browser tests: the next item is in hand
      })
      .catch(function () {})  // the verdict then answers with the whole item
      .finally(function () { if (fetching === from) fetching = null; });
  }

  function replace(into, from, selector) {
    var old = into.querySelector(selector);
    var fresh = from.querySelector(selector);
    if (old && fresh) old.replaceWith(fresh);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    if (held && event.detail.verb === "post" && item() && item().dataset.rank === held.from) {
      named = held;
      event.detail.headers["X-Queue-Held"] = held.rank + "@" + held.version;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var rank = xhr && xhr.getResponseHeader("X-Queue-Step");
    if (!rank) return;
    if (!named || named.rank !== rank) {  // not ours to complete: load the item as a page
      event.detail.shouldSwap = false;
      window.location.assign(xhr.getResponseHeader("HX-Push-Url"));
      return;
    }
    var next = parse(named.html).getElementById("queue-item");
    var step = parse(event.detail.serverResponse).getElementById("queue-step");
    replace(next, step, ".queue-head");
    replace(next, step, "#queue-messages");
    next.querySelector("#verdict-form #shown").value = step.querySelector("#shown").value;
    event.detail.serverResponse = next.outerHTML;
    held = named = null;
  });

  // After htmx puts the next item in place, start reading it from the top.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "queue-item") {
      window.setTimeout(prefetch, PREFETCH_DELAY_MS);
      window.scrollTo(0, 0);
      // The same title a full load of the item would have (reviews/queue.html).
      if (item() && item().dataset.title) document.title = item().dataset.title + " · Reflexion Review";
      // The duplicate guard asks: Enter confirms, Escape cancels.
      var yes = document.getElementById("confirm-yes");
      if (yes) yes.focus();
    }
  });
  document.addEventListener("htmx:historyRestore", prefetch);
  window.setTimeout(prefetch, PREFETCH_DELAY_MS);
})();
