// Material's search index and search worker, loaded when the reader first opens the search instead
// of on every page load. Why and how: overrides/main.html, which runs this file before the bundle.
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
