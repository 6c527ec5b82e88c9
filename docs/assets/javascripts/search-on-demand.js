// Material's search, loaded when the reader first opens it instead of on every page load.
//
// Material's bundle starts its search worker (assets/javascripts/workers/search.*.min.js, 40 kB)
// and downloads the search index (search/search_index.json, 220 kB: the text of every page) as soon
// as a page loads, whether or not the reader ever searches: a third of an article page's bytes. This
// script runs just before the bundle (overrides/main.html) and holds both back until the search
// opens: the reader presses / or s, clicks or tabs into the search box, or taps the search icon
// (all of which check Material's #__search toggle or focus its input). Then the index request goes
// out, the worker starts, and Material's search carries on exactly as before: its results show
// "Initializing search" until the index is in, then the query typed so far is run.
//
// What is held back, and nothing else:
// - over http(s), the XMLHttpRequest for search/search_index.json: opened by Material at once, sent
//   when the search opens (from disk, file://, Material itself already waits for the search to open
//   before it loads the index, search/search_index.js);
// - the search worker: `new Worker(...)` with the worker's URL gets a stand-in that starts the
//   real worker (from disk: the iframe-worker shim's) when the search opens.
// A page opened from a search result (?h=terms, search.highlight) highlights the terms with the
// index's settings: there both load at once, as without this script.
(function () {
  "use strict";

  var settings = document.getElementById("__config");
  var toggle = document.getElementById("__search");
  if (!settings || !toggle) return; // no search on this page

  var config = JSON.parse(settings.textContent);
  var base = new URL(config.base, location.href);
  var indexJson = new URL("search/search_index.json", base).href;
  var workerUrl = new URL(config.search, location.href).href;

  var opened = false;
  var waiting = [];

  function resolve(url) {
    try {
      return new URL(String(url), location.href).href;
    } catch (error) {
      return "";
    }
  }

  function open() {
    if (opened) return;
    opened = true;
    waiting.splice(0).forEach(function (go) {
      go();
    });
  }

  function whenOpen(go) {
    if (opened) go();
    else waiting.push(go);
  }

  if (new URLSearchParams(location.search).has("h")) open();
  toggle.addEventListener("change", function () {
    if (toggle.checked) open();
  });
  document.addEventListener("focusin", function (event) {
    if (event.target instanceof Element && event.target.closest(".md-search")) open();
  });

  // Over http(s): Material's request for the index is opened at once and sent once the search opens.
  var xhrOpen = XMLHttpRequest.prototype.open;
  var xhrSend = XMLHttpRequest.prototype.send;
  var forIndex = new WeakSet();
  XMLHttpRequest.prototype.open = function (method, url) {
    if (resolve(url) === indexJson) forIndex.add(this);
    else forIndex.delete(this);
    return xhrOpen.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (!opened && forIndex.has(this)) {
      var request = this;
      var args = arguments;
      whenOpen(function () {
        if (request.readyState === XMLHttpRequest.OPENED) xhrSend.apply(request, args); // not aborted meanwhile
      });
      return undefined;
    }
    return xhrSend.apply(this, arguments);
  };

  // The search worker: a stand-in that takes Material's listeners and messages and hands them to
  // the real worker, started once the search opens.
  var RealWorker = window.Worker;
  if (typeof RealWorker !== "function" || typeof EventTarget !== "function") return;

  function OnDemandWorker(url, options) {
    if (resolve(url) !== workerUrl) return new RealWorker(url, options);
    var stand = new EventTarget();
    var real = null;
    var ended = false;
    var queued = [];
    function relay(event) {
      var copy =
        event.type === "message"
          ? new MessageEvent("message", { data: event.data })
          : new ErrorEvent(event.type, { message: event.message, filename: event.filename, error: event.error });
      stand.dispatchEvent(copy);
      var handler = stand["on" + event.type];
      if (typeof handler === "function") handler.call(stand, copy);
    }
    whenOpen(function () {
      if (ended) return;
      real = new RealWorker(url, options);
      real.addEventListener("message", relay);
      real.addEventListener("error", relay);
      queued.splice(0).forEach(function (args) {
        real.postMessage.apply(real, args);
      });
    });
    stand.onmessage = null;
    stand.onerror = null;
    stand.postMessage = function () {
      if (real) real.postMessage.apply(real, arguments);
      else queued.push(arguments);
    };
    stand.terminate = function () {
      ended = true;
      queued.length = 0;
      if (real) real.terminate();
    };
    return stand;
  }
  window.Worker = OnDemandWorker;
})();
