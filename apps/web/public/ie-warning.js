// Internet Explorer cannot run the console: a persistent warning recommending Chrome (spec §2).
// Plain ES5 in a file of its own: the server's content security policy forbids inline scripts.
(() => {
  if (!/MSIE |Trident\//.test(navigator.userAgent)) return;
  var texts = {};
  var lang = 'zh-CN';
  try {
    texts = JSON.parse(document.getElementById('ie-warning-texts').text);
    lang = window.localStorage.getItem('uiot.language') || lang;
  } catch (_ignored) {}
  var box = document.createElement('div');
  box.id = 'ie-warning';
  box.setAttribute('style', 'padding:16px;background:#fffbe6;border-bottom:1px solid #ffe58f;font-size:14px');
  box.appendChild(document.createTextNode(texts[lang] || texts['zh-CN'] || ''));
  document.body.insertBefore(box, document.body.firstChild);
})();
