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
  const isSeat = (s) => /^[0-9]$/.test(s) && Number(s) < N;
  let step = 0, persp = "all";

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
    persp = s !== null && isSeat(s) ? s : "all";
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
    const pi = persp === "all" ? 0 : 1 + Number(persp);
    const pub = P[per[pi][0]], pri = P[per[pi][1]], last = P[per[pi][2]];
    const hand = HANDS[hi];
    const isEnd = pub.end !== null && pub.end !== undefined;
    document.body.dataset.hand = hi;
    document.body.dataset.kind = isEnd ? "end" : "action";
    const nActions = (hi + 1 < HANDS.length ? HANDS[hi + 1].first : STEPS.length) - hand.first - 1;
    $("step-label").textContent = `Step ${step + 1} / ${STEPS.length} · Hand ${hand.n + 1}` +
      ` of ${HANDS.length} · ` + (isEnd ? "end of hand" : `action ${ai + 1} of ${nActions}`);
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
      out += `<div class="${cls.join(" ")}" data-seat="${s}" id="seat-${s}">` +
        `<div class="plate"><div class="nm">${seatName(s)}</div>` +
        `<div class="meta">Seat ${s} · Team ${s % 2}</div><div>${badges}</div></div>` +
        `${bid}<div class="hand" data-seat="${s}">${cards}</div></div>`;
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

    /* The dealer's discard: face up where the data has it, else a back once it is made. */
    let disc = "";
    if (pri.dc !== null && pri.dc !== undefined) {
      disc = card(pri.dc, "discard", pub.d, "small");
    } else if (pub.dtu && pub.ph !== "dealer_discard" && !pub.so.includes(pub.d)) {
      disc = back("discard", pub.d, "small");
    }
    if (disc) out += `<div id="discard-box"><div class="lbl">Discard</div>${disc}</div>`;

    /* Trump and makers. */
    if (pub.tr !== null) {
      const red = pub.tr === 1 || pub.tr === 2;
      const al = pub.al.length
        ? "alone: " + pub.al.map((s) => `${seatName(s)} (seat ${s})`).join(", ") : "";
      out += `<div id="trump-box" data-trump="${pub.tr}"><div class="lbl">Trump</div>` +
        `<div class="sym${red ? " red" : ""}" title="${SUIT[pub.tr]}">${SYM[pub.tr]}</div>` +
        `<div class="who">made by ${seatName(pub.mk)} (seat ${pub.mk}, team ${pub.mk % 2})` +
        `${al ? "<br>" + al : ""}</div></div>`;
    }
    $("table").innerHTML = out;

    /* Side panels. */
    const team = (t) => esc(SEATS[t].name) + " &amp; " + esc(SEATS[t + 2].name);
    $("score").dataset.team0 = pub.sc[0];
    $("score").dataset.team1 = pub.sc[1];
    $("score").innerHTML = `<div class="t0">Team 0<br><small>${team(0)}</small><br>` +
      `<b>${pub.sc[0]}</b></div><div style="text-align:center;align-self:center">to ` +
      `${D.game.target}<br><small>tricks ${pub.tw[0]}–${pub.tw[1]}</small></div>` +
      `<div class="t1" style="text-align:right">Team 1<br><small>${team(1)}</small><br>` +
      `<b>${pub.sc[1]}</b></div>`;
    $("hand-info").innerHTML = `Hand ${hand.n + 1} · dealer ${seatName(pub.d)} (seat ${pub.d})` +
      ` · <span id="phase">${esc(pub.pt)}</span>` +
      (pub.tu !== null ? ` · to act: ${seatName(pub.tu)} (seat ${pub.tu})` : "");
    $("last-action").innerHTML = last ? `Last: <span id="last-text">${esc(last)}</span>` : "";
    const gameOver = step === STEPS.length - 1 ? `<br><b>${esc(D.game.summary)}</b>` : "";
    $("result").innerHTML = isEnd ? `<b>${esc(pub.end)}</b>${gameOver}` : "";
    $("auction").innerHTML = pub.au.map(([s, t]) =>
      `<li>${seatName(s)} <small>(seat ${s})</small> ${esc(t)}</li>`).join("");
    $("tricks-list").innerHTML = pub.tk.map(([l, flat, w], i) => {
      let cs = "";
      for (let j = 0; j < flat.length; j += 2) cs += card(flat[j + 1], "history", flat[j], "small");
      return `<div class="tr">${i + 1}. ${cs}<span class="w">${seatName(w)}</span></div>`;
    }).join("") || "<small>none yet</small>";
    document.title = `Step ${step + 1} · ` + document.querySelector("h1").textContent;
  }

  function setup() {
    $("subtitle").textContent = `Game ${D.game.id} · rules ${D.game.rules} · seed ` +
      `${D.game.seed} · ${D.game.summary}`;
    $("error").textContent = D.error ? "This record diverges from the rules: " + D.error : "";
    if (D.faults.length) {
      $("faults").innerHTML = D.faults.map((f) => `<div>Hand ${f.hand + 1}, seat ${f.seat} ` +
        `(${seatName(f.seat)}): ${esc(f.kind)}${f.sub ? " (substituted)" : ""}: ` +
        `${esc(f.detail)}</div>`).join("");
    } else {
      $("faults-panel").style.display = "none";
    }
    document.body.dataset.seats = N;
    for (let s = 0; s < N; s++) {
      const o = document.createElement("option");
      o.value = String(s);
      o.textContent = `Seat ${s}: ${SEATS[s].name}`;
      $("perspective").appendChild(o);
    }
    $("keys").textContent = `A or 0–${N - 1}`;
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
      else if (e.key === "a" || e.key === "A") setPersp("all");
      else if (isSeat(e.key)) setPersp(e.key);
    });
    window.addEventListener("hashchange", () => { read(); render(); });
    read();
    render();
  }
  setup();
})();
