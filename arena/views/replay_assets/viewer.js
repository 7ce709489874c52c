(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const P = D.pieces, STEPS = D.steps, HANDS = D.hands, CARDS = D.cards, SEATS = D.seats;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;",
    ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const SYM = ["♣", "♦", "♥", "♠"], SUIT = ["clubs", "diamonds", "hearts", "spades"];
  const N = SEATS.length;  /* 4 or 6: seats round the table clockwise from the bottom */
  const POS = N === 6 ? ["s", "sw", "nw", "n", "ne", "se"] : ["s", "w", "n", "e"];
  /* The perspectives this file holds: "all" and every seat, or one seat's alone (a page
     made for that seat has no other data at all). */
  const PERSPS = D.perspectives;
  const has = (p) => PERSPS.includes(p);
  let step = 0, persp = PERSPS[0];

  function card(c, where, seat, cls) {
    const f = CARDS[c];
    const col = f[4] ? " joker" : (f[2] ? " red" : "");
    const st = seat === null || seat === undefined ? "" : ` data-seat="${seat}"`;
    return `<div class="card${col}${cls ? " " + cls : ""}" data-card="${c}" data-face="up"` +
      ` data-where="${where}"${st} title="${esc(f[3])}"><span class="rk">${esc(f[0])}</span>` +
      `<span class="st">${esc(f[1])}</span></div>`;
  }
  function back(where, seat, cls) {
    const st = seat === null || seat === undefined ? "" : ` data-seat="${seat}"`;
    return `<div class="card back${cls ? " " + cls : ""}" data-face="down"` +
      ` data-where="${where}"${st}></div>`;
  }
  function seatName(s) { return esc(SEATS[s].name); }

  function read() {
    const q = new URLSearchParams(location.hash.replace(/^#/, ""));
    const n = parseInt(q.get("step"), 10);
    step = Number.isFinite(n) ? Math.max(0, Math.min(STEPS.length - 1, n)) : 0;
    const s = q.get("seat");
    persp = s !== null && has(s) ? s : PERSPS[0];
  }
  function write() {
    const h = `#step=${step}&seat=${persp}`;
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) { location.hash = h; }
  }
  function go(n) { step = Math.max(0, Math.min(STEPS.length - 1, n)); write(); render(); }
  function goHand(delta) {
    if (!STEPS.length) return;
    const h = STEPS[step][0] + delta;
    if (h < 0) return go(0);
    if (h >= HANDS.length) return go(STEPS.length - 1);
    go(HANDS[h].first);
  }
  function setPersp(p) { persp = p; write(); render(); }

  function render() {
    $("perspective").value = persp;
    $("slider").max = Math.max(0, STEPS.length - 1);
    $("slider").value = step;
    document.body.dataset.step = step;
    document.body.dataset.perspective = persp;
    if (!STEPS.length) { $("step-label").textContent = "No actions recorded"; return; }
    const [hi, ai, per] = STEPS[step];
    const pi = PERSPS.indexOf(persp);
    const pub = P[per[pi][0]], pri = P[per[pi][1]], last = P[per[pi][2]];
    const hand = HANDS[hi];
    const isEnd = pub.end !== null && pub.end !== undefined;
    document.body.dataset.hand = hi;
    document.body.dataset.kind = isEnd ? "end" : "action";
    const nActions = (hi + 1 < HANDS.length ? HANDS[hi + 1].first : STEPS.length) - hand.first - 1;
    $("step-label").textContent = `Step ${step + 1} / ${STEPS.length} · Hand ${hand.n}` +
      ` of ${D.game.hands} · ` + (isEnd ? "end of hand" : `action ${ai + 1} of ${nActions}`);
    $("prev").disabled = step === 0;
    $("prev-hand").disabled = step === 0;
    $("next").disabled = step === STEPS.length - 1;
    $("next-hand").disabled = step === STEPS.length - 1;

    const bottom = persp === "all" ? 0 : Number(persp);
    const pos = (s) => POS[(s - bottom + N) % N];
    const known = (s) => {
      if (persp === "all") return pri.hs[s];
      if (Number(persp) === s && pri.looked) return pri.h;
      return [];
    };
    const legal = new Set(pri.lg);
    const mine = (s) => persp === "all" ? s === pub.tu : (Number(persp) === s && s === pub.tu);
    const lastBid = {};
    for (const [s, t] of pub.au) lastBid[s] = t;
    const won = new Array(N).fill(0);
    for (const t of pub.tk) won[t[2]] += 1;

    /* The dealer's discard, beside the dealer: face up where the data has it (the dealer's
       own perspective, or all cards), else a back once it is made. */
    let disc = "";
    if (pri.dc !== null && pri.dc !== undefined) {
      disc = card(pri.dc, "discard", pub.d, "small");
    } else if (pub.dtu && pub.ph !== "dealer_discard" && !pub.so.includes(pub.d)) {
      disc = back("discard", pub.d, "small");
    }

    let out = "";
    for (let s = 0; s < N; s++) {
      const up = known(s), out_ = pub.so.includes(s);
      const cls = ["seat", "pos-" + pos(s), "t" + (s % 2)];
      if (pub.tu === s) cls.push("turn");
      if (out_) cls.push("out");
      let badges = "";
      if (pub.d === s) badges += `<span class="badge dealer" data-role="dealer">Dealer</span>`;
      if (pub.mk === s) badges += `<span class="badge maker" data-role="maker">Maker</span>`;
      if (pub.al.includes(s)) badges += `<span class="badge alone" data-role="alone">Alone</span>`;
      if (out_) badges += `<span class="badge sit" data-role="sitting-out">Sitting out</span>`;
      if (pub.tr !== null) badges += `<span class="badge won" data-role="won">${won[s]} won</span>`;
      let cards = "";
      for (const c of up) cards += card(c, "hand", s, mine(s) && legal.has(c) ? "legal" : "");
      for (let i = up.length; i < pub.n[s]; i++) cards += back("hand", s, "");
      const bid = pub.ph !== "play" && pub.ph !== "hand_over" && lastBid[s] !== undefined
        ? `<div class="bid">${esc(lastBid[s])}</div>` : "";
      const put = s === pub.d && disc
        ? `<div id="discard-box"><div class="lbl">Discard</div>${disc}</div>` : "";
      out += `<div class="${cls.join(" ")}" data-seat="${s}" id="seat-${s}">` +
        `<div class="plate"><div class="nm">${seatName(s)}</div>` +
        `<div class="meta">Seat ${s} · Team ${s % 2}</div><div>${badges}</div></div>` +
        `${bid}<div class="hand-row"><div class="hand" data-seat="${s}">${cards}</div>` +
        `${put}</div></div>`;
    }

    /* The middle: the trick being played, else the last one finished. */
    let trick = "", caption = "";
    const shown = pub.ct || (pub.tk.length ? pub.tk[pub.tk.length - 1] : null);
    if (shown) {
      const [leader, flat, winner] = shown;
      for (let i = 0; i < flat.length; i += 2) {
        const s = flat[i], c = flat[i + 1];
        const cls = winner !== null && winner === s ? "win" : (pub.ct ? "" : "dim");
        trick += `<div class="slot pos-${pos(s)}">${card(c, "trick", s, cls)}</div>`;
      }
      caption = pub.ct ? `Trick ${pub.tk.length + 1} · led by ${seatName(leader)}`
        : `Trick ${pub.tk.length} won by ${seatName(winner)}`;
    } else if (pub.ph !== "hand_over") {
      caption = esc(pub.pt);
    }
    if (isEnd) caption = `<span id="banner">${esc(pub.end)}</span>`;
    out += `<div id="trick" data-trick="${pub.ct ? "current" : (shown ? "last" : "none")}">` +
      `${trick}<div class="caption">${caption}</div></div>`;

    /* Kitty and upcard. */
    let kitty = "";
    const rest = pub.ks - 1;
    if (persp === "all") {
      const kc = pri.k;
      const upCls = pub.dtu ? "dim" : (pub.utd ? "dim" : "");
      kitty += card(kc[0], "upcard", null, "small " + upCls);
      for (const c of kc.slice(1)) kitty += card(c, "kitty", null, "small");
    } else {
      if (!pub.dtu) kitty += card(pub.up, "upcard", null, "small" + (pub.utd ? " dim" : ""));
      else kitty += back("upcard", null, "small");
      for (let i = 0; i < rest; i++) kitty += back("kitty", null, "small");
    }
    const upNote = pub.dtu ? "upcard taken by the dealer"
      : (pub.utd ? "upcard turned down" : "upcard");
    out += `<div id="kitty"><div class="lbl">Kitty</div><div class="row">${kitty}</div>` +
      `<div class="lbl" style="text-transform:none">${upNote}</div></div>`;

    /* Trump and makers. */
    if (pub.tr !== null) {  /* who is alone: the seats' badges say it */
      const red = pub.tr === 1 || pub.tr === 2;
      out += `<div id="trump-box" data-trump="${pub.tr}"><div class="lbl">Trump</div>` +
        `<div class="sym${red ? " red" : ""}" title="${SUIT[pub.tr]}">${SYM[pub.tr]}</div>` +
        `<div class="who">made by ${seatName(pub.mk)} (seat ${pub.mk}, team ${pub.mk % 2})` +
        `</div></div>`;
    }
    $("table").innerHTML = out;

    /* Side panels. */
    const team = (t) => [...new Set(SEATS.filter((_, s) => s % 2 === t).map((x) => x.name))]
      .map(esc).join(" &amp; ");  /* each bot once: a team is often one bot in every seat */
    $("score").dataset.team0 = pub.sc[0];
    $("score").dataset.team1 = pub.sc[1];
    $("score").innerHTML = `<div class="t0">Team 0<br><small>${team(0)}</small><br>` +
      `<b>${pub.sc[0]}</b></div><div style="text-align:center;align-self:center">to ` +
      `${D.game.target}<br><small>tricks ${pub.tw[0]}–${pub.tw[1]}</small></div>` +
      `<div class="t1" style="text-align:right">Team 1<br><small>${team(1)}</small><br>` +
      `<b>${pub.sc[1]}</b></div>`;
    $("hand-info").innerHTML = `Hand ${hand.n} · dealer ${seatName(pub.d)} (seat ${pub.d})` +
      ` · <span id="phase">${esc(pub.pt)}</span>` +
      (pub.tu !== null ? ` · to act: ${seatName(pub.tu)} (seat ${pub.tu})` : "");
    $("last-action").innerHTML = last ? `Last: <span id="last-text">${esc(last)}</span>` : "";
    const gameOver = step === STEPS.length - 1 ? `<br><b>${esc(D.game.summary)}</b>` : "";
    $("result").innerHTML = isEnd ? `<b>${esc(pub.end)}</b>${gameOver}` : "";
    $("auction").innerHTML = pub.au.map(([s, t]) =>
      `<li>${seatName(s)} <small>(seat ${s})</small> ${esc(t)}</li>`).join("");
    /* Each trick: who led, each card over the seat that played it, in playing order. */
    $("tricks-list").innerHTML = pub.tk.map(([l, flat, w], i) => {
      let cs = "";
      for (let j = 0; j < flat.length; j += 2) {
        const s = flat[j], lead = j === 0 ? " lead" : "", win = s === w ? " won" : "";
        cs += `<div class="play${lead}${win}" data-seat="${s}">` +
          card(flat[j + 1], "history", s, "small") +
          `<span class="by" title="${seatName(s)}">${s} ${seatName(s)}</span></div>`;
      }
      return `<div class="tr" data-leader="${l}" data-winner="${w}"><div class="tr-head">` +
        `${i + 1}. led by ${seatName(l)} (seat ${l}), won by ${seatName(w)} (seat ${w})` +
        `</div><div class="tr-cards">${cs}</div></div>`;
    }).join("") || "<small>none yet</small>";
    document.title = `Step ${step + 1} · ` + document.querySelector("h1").textContent;
  }

  function setup() {
    const only = PERSPS.includes("all") ? null : Number(PERSPS[0]);
    $("subtitle").textContent = `Game ${D.game.id} · rules ${D.game.rules} · ` +
      (only === null ? `seed ${D.game.seed} · ` : "") + D.game.summary +
      (only === null ? "" : ` · seen from seat ${only} (${SEATS[only].name}): this page holds ` +
        "nothing that seat could not see") +
      (HANDS.length < D.game.hands ? ` · hand ${HANDS.map((h) => h.n).join(", ")} of ` +
        `${D.game.hands} only` : "");
    $("error").textContent = D.error ? "This record diverges from the rules: " + D.error : "";
    if (D.faults.length) {
      $("faults").innerHTML = D.faults.map((f) => `<div>Hand ${f.hand}, seat ${f.seat} ` +
        `(${seatName(f.seat)}): ${esc(f.kind)}${f.sub ? " (substituted)" : ""}` +
        `${f.detail ? ": " + esc(f.detail) : ""}</div>`).join("");
    } else {
      $("faults-panel").style.display = "none";
    }
    document.body.dataset.seats = N;
    const sel = $("perspective");
    sel.textContent = "";
    for (const p of PERSPS) {
      const o = document.createElement("option");
      o.value = p;
      o.textContent = p === "all" ? "All cards" : `Seat ${p}: ${SEATS[Number(p)].name}`;
      sel.appendChild(o);
    }
    sel.disabled = PERSPS.length === 1;
    $("keys").textContent = PERSPS.length === 1 ? "" : `, A or 0–${N - 1} perspective`;
    $("prev").onclick = () => go(step - 1);
    $("next").onclick = () => go(step + 1);
    $("prev-hand").onclick = () => {
      const h = STEPS[step][0];
      go(step === HANDS[h].first ? (h > 0 ? HANDS[h - 1].first : 0) : HANDS[h].first);
    };
    $("next-hand").onclick = () => goHand(1);
    $("slider").oninput = (e) => go(Number(e.target.value));
    $("perspective").onchange = (e) => setPersp(e.target.value);
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
      else if (e.key === "ArrowDown" || e.key === "PageDown") {
        $("next-hand").click(); e.preventDefault();
      } else if (e.key === "ArrowUp" || e.key === "PageUp") {
        $("prev-hand").click(); e.preventDefault();
      }
      else if ((e.key === "a" || e.key === "A") && has("all")) setPersp("all");
      else if (has(e.key)) setPersp(e.key);
    });
    window.addEventListener("hashchange", () => { read(); render(); });
    window.addEventListener("resize", fit);
    read();
    render();
    fit();
  }

  /* The table is drawn at 800x660 and scaled down to what the window leaves beside the
     side panel (or, on a narrow screen, above it), so that nothing is cut off. */
  function fit() {
    const app = $("app"), wrap = $("table-wrap"), side = $("side"), table = $("table");
    const TW = 800, TH = 660, GAP = 14;
    const cs = getComputedStyle(app);
    const inner = app.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    let w = inner - side.offsetWidth - GAP, byHeight = true;
    if (w < 0.55 * TW) { w = inner; byHeight = false; }  /* the side panel goes below */
    let k = Math.min(1, w / TW);
    if (byHeight) {
      const top = wrap.getBoundingClientRect().top + window.scrollY;
      k = Math.min(k, (window.innerHeight - top - GAP) / TH);
    }
    k = Math.max(k, 0.45);
    table.style.transform = k < 1 ? `scale(${k})` : "";
    wrap.style.width = `${Math.floor(TW * k)}px`;
    wrap.style.height = `${Math.floor(TH * k)}px`;
    document.body.dataset.scale = k.toFixed(3);
  }
  setup();
})();
