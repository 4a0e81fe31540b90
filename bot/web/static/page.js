// A match page: step through the turns (buttons, ← → Home End, #ply=N or ?ply=N), follow a running match.
(function () {
  "use strict";
  var base = location.pathname.replace(/\/+$/, "");
  var board = document.getElementById("board"), list = document.getElementById("moves");
  var where = document.getElementById("where"), turn = document.getElementById("turn");
  var data = null, ply = 0, cache = {};

  function asked() {
    var m = /[#&?]ply=(\d+)/.exec(location.hash + location.search);
    return m ? parseInt(m[1], 10) : null;
  }
  function src(n) { return base + "/board/" + n + ".png"; }
  function preload(n) {
    if (n >= 0 && data && n < data.turns.length && !cache[n]) { cache[n] = new Image(); cache[n].src = src(n); }
  }
  function show(n, keepHash) {
    var last = data.turns.length - 1;
    ply = Math.max(0, Math.min(last, n));
    board.src = src(ply);
    board.setAttribute("data-ply", String(ply));
    where.textContent = data.labels.turn.replace("{n}", ply).replace("{total}", last);
    turn.textContent = data.turns[ply].text;
    var items = list.children;
    for (var i = 0; i < items.length; i++) { items[i].className = i === ply ? "at" : ""; }
    var li = items[ply];     // keep the marked line in view inside the list (never scroll the page)
    if (li && (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = li.offsetTop - list.clientHeight / 2;
    }
    document.getElementById("first").disabled = document.getElementById("previous").disabled = ply === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = ply === last;
    if (!keepHash) { history.replaceState(null, "", "#ply=" + ply); }
    preload(ply + 1); preload(ply - 1);
  }
  function fill(fresh) {
    var atEnd = !data || ply === data.turns.length - 1;
    data = fresh;
    document.getElementById("result").textContent = data.result;
    document.getElementById("title").textContent = data.title;
    document.getElementById("replay").textContent = data.labels.replay;
    document.getElementById("record").textContent = data.labels.record;
    ["first", "previous", "next", "last"].forEach(function (id) {
      var b = document.getElementById(id);
      b.title = data.labels[id]; b.setAttribute("aria-label", data.labels[id]);
    });
    list.textContent = "";
    data.turns.forEach(function (t) {
      var li = document.createElement("li");
      li.textContent = t.text;
      li.addEventListener("click", function () { show(t.ply); });
      list.appendChild(li);
    });
    return atEnd;
  }
  function load(first) {
    fetch(base + "/data.json").then(function (r) { return r.json(); }).then(function (fresh) {
      var atEnd = fill(fresh);
      var want = first ? asked() : null;
      show(want !== null ? want : (first || atEnd ? data.turns.length - 1 : ply), first && want === null);
      if (data.running) { setTimeout(function () { load(false); }, data.poll * 1000); }
    });
  }
  function step(n) { if (data) { show(n); } }
  document.getElementById("first").onclick = function () { step(0); };
  document.getElementById("previous").onclick = function () { step(ply - 1); };
  document.getElementById("next").onclick = function () { step(ply + 1); };
  document.getElementById("last").onclick = function () { step(data.turns.length - 1); };
  document.addEventListener("keydown", function (e) {
    if (!data || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: data.turns.length - 1}[e.key];
    if (to !== undefined) { e.preventDefault(); step(to); }
  });
  window.addEventListener("hashchange", function () { var n = asked(); if (n !== null && n !== ply) { step(n); } });
  document.getElementById("replay").href = base + "/replay.gif";
  document.getElementById("record").href = base + "/record.txt";
  load(true);
})();
