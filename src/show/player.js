// The player both pages share: a step, play and pause, the address's "#piece=K" ("&play"
// starts playing at once: a shared link, or a test of the player), the buttons and the keys.
// The page defines `draw()` (the step `k` on screen) and `LAST` (its last step) before it.
let k = 0, timer = null;

function go(i, keepHash) {
  k = Math.max(0, Math.min(LAST, i | 0));
  draw();
  if (!keepHash && !timer) history.replaceState(null, "", "#piece=" + k);
}

function stop() {
  if (timer) { clearInterval(timer); timer = null; }
  $("play").innerHTML = "&#x25B6; play";
  history.replaceState(null, "", "#piece=" + k);
}

function play() {
  if (timer) return stop();
  if (k >= LAST) go(0);
  $("play").innerHTML = "&#x25AE;&#x25AE; pause";
  timer = setInterval(() => {
    if (k >= LAST) return stop();
    go(k + 1, true);
  }, 1000 / Number($("speed").value));
}

function fromHash() {
  const m = /piece=(\d+)/.exec(location.hash);
  go(m ? Number(m[1]) : 0, true);
  if (/[#&]play\b/.test(location.hash) && !timer) play();
}

$("slider").max = LAST;
$("slider").addEventListener("input", (e) => { if (timer) stop(); go(Number(e.target.value)); });
$("first").onclick = () => { stop(); go(0); };
$("back").onclick = () => { stop(); go(k - 1); };
$("step").onclick = () => { stop(); go(k + 1); };
$("last").onclick = () => { stop(); go(LAST); };
$("play").onclick = play;
$("speed").onchange = () => { if (timer) { stop(); play(); } };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === " ") { e.preventDefault(); play(); }
  else if (e.key === "ArrowRight") { stop(); go(k + 1); }
  else if (e.key === "ArrowLeft") { stop(); go(k - 1); }
  else if (e.key === "Home") { stop(); go(0); }
  else if (e.key === "End") { stop(); go(LAST); }
});
window.addEventListener("hashchange", fromHash);
fromHash();
