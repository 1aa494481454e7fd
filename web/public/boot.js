/* global document, requestAnimationFrame */
// The page's frame is drawn first, then the app's code runs: it is already downloading (its modulepreload links),
// and a browser that has it at once (a fast network, its cache) would otherwise run it before drawing anything,
// leaving the page blank for as long as the first render takes. The build puts the app's entry in data-entry.
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  if (!entry) return;
  requestAnimationFrame(function () {
    setTimeout(function () {
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = 'anonymous';
      script.src = entry;
      document.head.appendChild(script);
    });
  });
})();
