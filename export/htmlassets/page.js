(function () {
  "use strict";
  var sel = document.getElementById("branch");
  var cuts = [];

  // show makes the page show the branch of the selector's option i: the
  // sections its data-segs name ("3" whole, "3:41" up to message m41),
  // and no other.
  function show(i) {
    var opt = sel.options[i];
    if (!opt) {
      return;
    }
    var want = Object.create(null);
    var parts = opt.getAttribute("data-segs").split(" ");
    var k, p, seg, m, last = null;
    for (k = 0; k < parts.length; k++) {
      p = parts[k].split(":");
      want["s" + p[0]] = p.length > 1 ? p[1] : "";
      last = "s" + p[0];
    }
    for (k = 0; k < cuts.length; k++) {
      cuts[k].classList.remove("cut");
    }
    cuts = [];
    var segs = document.querySelectorAll("main > .seg");
    for (k = 0; k < segs.length; k++) {
      seg = segs[k];
      if (!(seg.id in want)) {
        seg.hidden = true;
        continue;
      }
      seg.hidden = false;
      seg.classList.toggle("trunc", want[seg.id] !== "");
      if (want[seg.id] !== "") {
        m = document.getElementById("m" + want[seg.id]);
        if (m) {
          m.classList.add("cut");
          cuts.push(m);
        }
      }
    }
    return last;
  }

  if (sel) {
    sel.addEventListener("change", function () {
      var last = show(sel.selectedIndex);
      var seg = last && document.getElementById(last);
      if (seg && sel.selectedIndex > 0) {
        seg.scrollIntoView({block: "start"});
      }
    });
    if (sel.selectedIndex > 0) {
      show(sel.selectedIndex);
    }
  }

  // The page's own check (html_chromium_test.go): #test selects the second
  // branch, opens the first tool call shown, and marks what is shown.
  if (location.hash === "#test") {
    if (sel && sel.options.length > 1) {
      sel.selectedIndex = 1;
      sel.dispatchEvent(new Event("change"));
    }
    var calls = document.querySelectorAll("details.call");
    for (var i = 0; i < calls.length; i++) {
      if (!calls[i].open && calls[i].checkVisibility()) {
        calls[i].querySelector("summary").click();
        break;
      }
    }
    var all = document.querySelectorAll("article, details > :not(summary)");
    for (var j = 0; j < all.length; j++) {
      all[j].setAttribute("data-shown", all[j].checkVisibility() ? "1" : "0");
    }
    document.body.setAttribute("data-test", "done");
  }
  // #test-scroll scrolls to the end, as the End key does, and once the
  // window is drawn says which messages are in it and whether each is
  // drawn, or skipped as content-visibility skips what is out of view.
  if (location.hash === "#test-scroll") {
    window.scrollTo(0, document.documentElement.scrollHeight);
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        var arts = document.querySelectorAll("main > .seg:not([hidden]) > article");
        var seen = [];
        for (var k = Math.max(0, arts.length - 100); k < arts.length; k++) {
          var r = arts[k].getBoundingClientRect();
          if (r.bottom > 0 && r.top < innerHeight) {
            seen.push(arts[k].id + (arts[k].checkVisibility({contentVisibilityAuto: true}) ? "" : ":skipped"));
          }
        }
        document.body.setAttribute("data-test", "scrolled " + seen.join(" "));
      });
    });
  }
})();
