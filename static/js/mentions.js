// Mention suggestions under a comment box. The server lists (with htmx, as you type) the people
// who can see the item whose username starts with the @name being typed; a click or Enter on
// one puts the name into the comment. Without this script the list is plain text to read.
(function () {
  "use strict";

  var TYPED = /@[\w.+-]*$/;

  function boxOf(el) {
    var form = el.closest("form");
    return form && form.querySelector("textarea[name=body]");
  }

  document.addEventListener("click", function (event) {
    var pick = event.target.closest(".mention-pick");
    var box = pick && boxOf(pick);
    if (!box) return;
    box.value = box.value.replace(TYPED, "@" + pick.dataset.mention + " ");
    var list = pick.closest(".mention-suggestions");
    if (list) list.replaceChildren();
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  });

  // ↓ at the end of the comment moves into the suggestions; ↑/↓ between them, Esc back.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target.matches && target.matches("textarea[name=body]") && event.key === "ArrowDown" &&
        target.selectionStart === target.value.length) {
      var first = target.form && target.form.querySelector(".mention-pick");
      if (first) { event.preventDefault(); first.focus(); }
      return;
    }
    var pick = target.closest && target.closest(".mention-pick");
    if (!pick) return;
    var all = Array.prototype.slice.call(pick.closest(".mention-suggestions").querySelectorAll(".mention-pick"));
    var i = all.indexOf(pick);
    if (event.key === "ArrowDown" && all[i + 1]) { event.preventDefault(); all[i + 1].focus(); }
    else if (event.key === "ArrowUp" || event.key === "Escape") {
      event.preventDefault();
      if (event.key === "ArrowUp" && i > 0) all[i - 1].focus(); else boxOf(pick).focus();
    }
  });
})();
