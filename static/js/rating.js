// Keyboard for rubric rating forms (calibration, rating rounds). Every key mirrors a visible
// radio, link or button: without this script the radio groups, Tab and the Save button work
// the same, as plain forms or with htmx swaps.
(function () {
  "use strict";

  function typing(target) {
    return target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
      (target.tagName === "INPUT" && !/^(radio|checkbox|submit|button)$/.test(target.type)));
  }

  function form() { return document.querySelector("form.rating-form"); }

  // The criterion the keys act on: the one holding focus, else the first without a level.
  function currentCriterion() {
    var f = form();
    if (!f) return null;
    var focused = document.activeElement && document.activeElement.closest("fieldset.criterion");
    if (focused && f.contains(focused)) return focused;
    var all = f.querySelectorAll("fieldset.criterion");
    for (var i = 0; i < all.length; i++) {
      if (!all[i].querySelector("input[type=radio]:checked")) return all[i];
    }
    return all[0] || null;
  }

  function toggleHelp(force) {
    var help = document.getElementById("keys-help");
    var button = document.getElementById("keys-toggle");
    if (!help) return;
    var show = force === undefined ? help.hidden : force;
    help.hidden = !show;
    if (button) button.setAttribute("aria-expanded", String(show));
  }

  // htmx binds a swapped-in form when it settles; bind it now so a quick key does not post
  // the form as a plain page load (a no-op once htmx has done it).
  function bound(el) {
    if (window.htmx) window.htmx.process(el.closest("form") || el);
    return el;
  }

  function press(selector) {
    var el = document.querySelector(selector);
    if (!el || el.disabled) return false;
    bound(el).click();
    return true;
  }

  function focusIn(criterion, options) {
    if (!criterion) return;
    var radio = criterion.querySelector("input[type=radio]:checked") ||
      criterion.querySelector("input[type=radio]");
    if (radio && !radio.disabled) radio.focus(options);
  }

  function focusFirst() { focusIn(currentCriterion(), { preventScroll: true }); }

  // After a digit: the next criterion without a level (looking on, then from the top); when
  // every criterion has one, the following criterion (changing a rating), else stay.
  function moveOn(from) {
    var all = Array.prototype.slice.call(form().querySelectorAll("fieldset.criterion"));
    var i = all.indexOf(from);
    var order = all.slice(i + 1).concat(all.slice(0, i));
    var open = order.filter(function (c) { return !c.querySelector("input[type=radio]:checked"); });
    focusIn(open[0] || all[i + 1] || from);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#keys-toggle")) toggleHelp();
  });

  document.addEventListener("keydown", function (event) {
    var f = form();
    // The all-done screen has no form, only its Previous link (p) and the keys help.
    if (!f && !document.getElementById("rate-done")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    var key = event.key;
    var handled = true;
    if (/^[1-5]$/.test(key)) {
      var criterion = currentCriterion();
      var radio = criterion && criterion.querySelector('input[type=radio][data-key="' + key + '"]');
      if (radio && !radio.disabled) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
        moveOn(criterion);
      } else handled = false;
    } else if (key === "a") {
      var anchors = currentCriterion() && currentCriterion().querySelector("details.anchors");
      if (anchors) anchors.open = !anchors.open; else handled = false;
    } else if (key === "Enter" && f && f.contains(event.target) && event.target.tagName === "INPUT") {
      // Radios have no implicit submission in every browser: Enter saves, as the button does.
      if (f.requestSubmit) bound(f).requestSubmit(); else press("#rating-save");
    } else if (key === "j") {
      handled = press("#item-next");
    } else if (key === "p") {
      handled = press("#item-prev");
    } else if (key === "?") {
      toggleHelp();
    } else if (key === "Escape") {
      toggleHelp(false);
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  });

  // The elements an item is swapped into; other swaps on the page (the header's mention
  // count, which arrives after the page loads) must not take the focus from the rater.
  var ITEM_TARGETS = ["rate-item", "calibration-item"];

  // After htmx puts the next item in place, read it from the top with the keys ready.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || ITEM_TARGETS.indexOf(target.id) < 0) return;
    if (form()) {
      window.scrollTo(0, 0);
      var title = document.getElementById("item-title");
      if (title) document.title = title.textContent + " · Reflexion Review";
      focusFirst();
    }
  });

  document.addEventListener("DOMContentLoaded", focusFirst);
})();
