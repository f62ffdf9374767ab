// akk web: live updates and in-place answers over the server's HTML
// fragments. Without this script the page still works (links and forms).
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="akk-csrf"]').content;
  const $ = (s) => document.querySelector(s);
  let busy = false;    // an answer is in flight: the detail is its own
  let dirty = false;   // a change arrived while refreshing
  let refreshing = false;

  function sel() {
    const d = $("#detail .detail");
    return d ? d.dataset.t : "";
  }

  async function get(url) {
    const r = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (r.status === 401) { location.reload(); throw new Error("unpaired"); }
    return r.text();
  }

  // setDetail replaces the detail, keeping the outcome of the last answer
  // when the new state has no message of its own.
  function setDetail(html) {
    const old = $("#msg");
    $("#detail").innerHTML = html;
    if (old && !$("#msg")) {
      const d = $("#detail .detail");
      const where = d && d.querySelector(".where");
      if (where) where.after(old); else if (d) d.prepend(old);
    }
  }

  // say shows a message above the detail (as text, never as HTML).
  function say(text) {
    const m = $("#msg") || document.createElement("p");
    m.id = "msg"; m.className = "msg bad"; m.textContent = text;
    $("#detail").prepend(m);
  }

  async function showDetail(t) {
    setDetail(await get("/frag/detail?t=" + encodeURIComponent(t)));
  }

  async function refresh() {
    if (refreshing) { dirty = true; return; }
    refreshing = true;
    try {
      do {
        dirty = false;
        const t = sel();
        $("#list").innerHTML = await get("/frag/list?t=" + encodeURIComponent(t));
        if (busy) continue;
        const d = $("#detail .detail");
        const item = t && document.querySelector('#list .item[data-t="' + CSS.escape(t) + '"]');
        if (!t) {
          const first = $("#list .item");
          if (first) await showDetail(first.dataset.t);
        } else if (!item || !d || item.dataset.key !== d.dataset.key) {
          await showDetail(t);
        }
      } while (dirty);
    } catch (e) {
      // the next change or the stream's reconnect tries again
    } finally {
      refreshing = false;
    }
    document.body.dataset.refreshed = String(Date.now());
  }

  document.addEventListener("click", async (ev) => {
    const a = ev.target.closest("a.item");
    if (!a) return;
    ev.preventDefault();
    history.replaceState(null, "", "/?t=" + encodeURIComponent(a.dataset.t));
    for (const i of document.querySelectorAll("#list .item")) i.classList.toggle("sel", i === a);
    await showDetail(a.dataset.t);
  });

  document.addEventListener("submit", async (ev) => {
    const f = ev.target.closest("form.choice");
    if (!f) return;
    ev.preventDefault();
    if (busy) return;
    busy = true;
    for (const b of document.querySelectorAll("#detail button")) b.disabled = true;
    try {
      const r = await fetch("/answer", {
        method: "POST", credentials: "same-origin",
        headers: { "X-Akk-CSRF": csrf, "X-Akk-Fragment": "1" },
        body: new URLSearchParams(new FormData(f)),
      });
      if (r.status === 401) { location.reload(); return; }
      const html = await r.text();
      if (r.ok) $("#detail").innerHTML = html;
      else say("Refused: " + html);
    } catch (e) {
      say("The answer's reply did not arrive (" + e.message + "): look at the pane before answering again.");
    } finally {
      busy = false;
    }
    refresh();
  });

  const es = new EventSource("/events");
  es.addEventListener("open", () => { $("#live").classList.add("on"); refresh(); });
  es.addEventListener("error", () => $("#live").classList.remove("on"));
  es.addEventListener("change", () => refresh());
})();
