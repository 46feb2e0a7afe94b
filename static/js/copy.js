// Copy buttons: <button data-copy-target="ID" hidden> copies the text of element ID to the
// clipboard. The button stays hidden without this script (the text is then copied by hand);
// when the clipboard is refused, the text is selected so Ctrl+C copies it.
(function () {
  "use strict";

  function say(button, text) {
    var status = document.getElementById(button.id + "-status");
    if (status) status.textContent = text;
  }

  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copy(button) {
    var source = document.getElementById(button.dataset.copyTarget);
    if (!source) return;
    var text = source.textContent.trim();
    var fallback = function () {
      select(source);
      say(button, "Selected: press Ctrl+C (⌘C) to copy.");
    };
    if (!navigator.clipboard || !window.isSecureContext) return fallback();
    navigator.clipboard.writeText(text).then(function () {
      button.textContent = "Copied";
      say(button, "Copied to the clipboard.");
    }, fallback);
  }

  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { copy(button); });
  });
})();
