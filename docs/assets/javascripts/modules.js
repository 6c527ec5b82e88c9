// The JavaScript of the interactive pages, and Material's document$ on a page opened from disk.
//
// 1. From disk (file://) Material turns instant navigation off, and its document$ completes there
//    without ever emitting, so that nothing which waits on it would run: the math (katex.js) and
//    the playground stay blank in the offline build. There a stand-in takes its place, which gives
//    the document once it is loaded (from disk every page view is a full load). This file comes
//    first in extra_javascript, so that the scripts after it subscribe to the stand-in.
//
// 2. An element of a page with data-module="<path of an ES module, relative to this file>" asks
//    for that module, which then loads once per document. Over http(s) it loads as the module it
//    is. From disk, where browsers load no ES module (and fetch() fails), it loads as the classic
//    script beside it, <name>.bundle.js, which has the files the modules fetch inlined:
//    publish/generate/playground_bundle.py writes it (`make update`), a test holds it up to date.
//    A <script src> in a page's Markdown would be relative to the page, whose address differs
//    between the served site (playground/) and the offline one (playground.html); MkDocs links
//    this file right from every page. It follows document$, so that a page reached by instant
//    navigation gets its module too.
(function () {
  "use strict";

  var here = document.currentScript.src;

  function loadedDocument() {
    var ready = document.readyState !== "loading";
    var waiting = [];
    if (!ready) {
      document.addEventListener(
        "DOMContentLoaded",
        function () {
          ready = true;
          waiting.splice(0).forEach(function (call) {
            call(document);
          });
        },
        { once: true },
      );
    }
    return {
      subscribe: function (observer) {
        var next = typeof observer === "function" ? observer : observer && observer.next && observer.next.bind(observer);
        var live = Boolean(next);
        var call = function (doc) {
          if (live) next(doc);
        };
        if (ready) call(document);
        else waiting.push(call);
        return {
          unsubscribe: function () {
            live = false;
          },
        };
      },
    };
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    var emitted = false;
    var completed = false;
    var probe = window.document$.subscribe({
      next: function () {
        emitted = true;
      },
      complete: function () {
        completed = true;
      },
    });
    if (probe && typeof probe.unsubscribe === "function") probe.unsubscribe();
    if (completed && !emitted) window.document$ = loadedDocument();
  } else {
    window.document$ = loadedDocument(); // without Material's bundle (should not happen)
  }

  var requested = {};

  window.document$.subscribe(function () {
    var wanted = document.querySelectorAll("[data-module]");
    for (var i = 0; i < wanted.length; i++) {
      var module = new URL(wanted[i].getAttribute("data-module"), here);
      var fromDisk = module.protocol === "file:";
      var src = fromDisk ? module.href.replace(/\.js$/, ".bundle.js") : module.href;
      if (requested[src]) continue;
      requested[src] = true;
      var script = document.createElement("script");
      if (!fromDisk) script.type = "module";
      script.src = src;
      document.body.appendChild(script);
    }
  });
})();
