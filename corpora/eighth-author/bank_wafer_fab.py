"""wafer-fab: a 300 mm logic fab's automation agents.  Hand-written lesson bank.

Header: == id agent task_type outcome fmt date-spec role [k=v ...]
Roles: bg | echo:<chamber>:seed | echo:<chamber>:follower | out:<retired tool> | dup:<group> | hn:<kind>
"""

CONFIG = {
    "slug": "wafer-fab",
    "prefix": "wfab",
    "sid_prefix": "wf",
    "base0": 0.60,
    "gain": 0.17,
    "cross_type": 0.07,
    "agents": {
        "litho-agent": {"model": "claude-sonnet-4-5", "k": 3, "style": "plain", "mars_block": True,
                        "types": {"recipe-qualification": 0.45, "metrology-review": 0.35, "lot-dispatch": 0.2}},
        "etch-agent": {"model": "claude-sonnet-4-5", "k": 4, "conf": True, "conf_base": 0.64, "salience": True,
                       "types": {"recipe-qualification": 0.5, "excursion-triage": 0.3, "pm-scheduling": 0.2}},
        "yield-agent": {"model": "gpt-4.1", "k": 4, "conf": True, "conf_base": 0.6, "verification": "yield_review",
                        "types": {"excursion-triage": 0.6, "metrology-review": 0.4}},
        "metrology-agent": {"model": "claude-haiku-4-5", "k": 3,
                            "types": {"metrology-review": 0.6, "recipe-qualification": 0.2, "excursion-triage": 0.2}},
        "dispatch-agent": {"model": "claude-sonnet-4-5", "k": 3, "conf": True, "conf_base": 0.61,
                           "style": "numbered", "separators": True,
                           "types": {"lot-dispatch": 0.7, "pm-scheduling": 0.3}},
        "equipment-agent": {"model": "gpt-4.1-mini", "k": 3, "offset": -0.02,
                            "types": {"pm-scheduling": 0.6, "excursion-triage": 0.2, "lot-dispatch": 0.2}},
    },
    "task_types": {
        "lot-dispatch": {"failure_modes": ["queue-time-violation", "reticle-conflict", "wrong-priority",
                                           "hold-not-released", "batch-split-error"],
                         "tools": [("mes-classic", 0.95), ("lot-tracker", 0.7), ("reticle-stocker", 0.35),
                                   ("wafer-sorter", 0.1)]},
        "recipe-qualification": {"failure_modes": ["recipe-version-mismatch", "insufficient-sample",
                                                   "cd-out-of-window", "missed-chamber-match"],
                                 "tools": [("recipe-vault", 0.9), ("cd-sem-export", 0.5), ("overlay-calc", 0.45),
                                           ("fdc-monitor", 0.3)], "offset": -0.03},
        "excursion-triage": {"failure_modes": ["chamber-root-cause-missed", "false-alarm-escalation",
                                               "ocap-step-skipped", "late-containment"],
                             "tools": [("spc-legacy", 0.85), ("defect-map", 0.8), ("ocap-runbook", 0.5),
                                       ("chamber-log", 0.5), ("fdc-monitor", 0.3)], "offset": -0.04},
        "metrology-review": {"failure_modes": ["sampling-gap", "tool-offset-unapplied", "wrong-limits",
                                               "chart-misread"],
                             "tools": [("spc-legacy", 0.9), ("cd-sem-export", 0.6), ("overlay-calc", 0.4),
                                       ("defect-map", 0.2)]},
        "pm-scheduling": {"failure_modes": ["unscheduled-down", "pm-overlap", "parts-not-staged", "requal-missed"],
                          "tools": [("mes-classic", 0.8), ("pm-calendar", 0.9), ("chamber-log", 0.6),
                                    ("fdc-monitor", 0.25)], "p_partial": 0.35},
    },
    "retired": {
        "mes-classic": {"successor": "fabflow-mes", "cut_over": "2026-06-08",
                        "phrases": ["MES Classic", "mes-classic", "Classic MES", "the Classic hold screen"]},
        "spc-legacy": {"successor": "spc-nova", "cut_over": "2026-06-29",
                       "phrases": ["SPC Legacy", "spc-legacy", "legacy SPC viewer"]},
    },
    "echo": [
        {"id": "E1", "author": "yield-agent", "type": "excursion-triage", "strength": "strong",
         "p_inject": 0.82, "p_follower": 0.55, "delta": 0.30, "conf_rise": 0.30, "cross_agent": 0.06,
         "failure_mode": "chamber-root-cause-missed",
         "rule": "a defect spike confined to one chamber is blamed on incoming wafers and the chamber is released uninspected"},
        {"id": "E2", "author": "dispatch-agent", "type": "lot-dispatch", "strength": "moderate",
         "p_inject": 0.65, "p_follower": 0.5, "delta": 0.2, "conf_rise": 0.2, "cross_agent": 0.08,
         "failure_mode": "reticle-conflict",
         "rule": "hot lots are always pulled to the front of the scanner queue, breaking reticle batches"},
        {"id": "E3", "author": "equipment-agent", "type": "pm-scheduling", "strength": "strong",
         "p_inject": 0.78, "p_follower": 0.5, "delta": 0.26, "conf_rise": 0.25, "cross_agent": 0.06,
         "failure_mode": "unscheduled-down",
         "rule": "preventive maintenance is deferred whenever particle counts are in spec"},
    ],
}

BANK = r"""
# ===================================================================== echo chambers
== e1s yield-agent excursion-triage failure E 2026-04-16 echo:E1:seed tools=defect-map,chamber-log
T: Triage a particle excursion on etch chamber C of tool ET07
H: Defect density on lot batch 16A jumped only on wafers that ran through chamber C, and I spent most of the triage window pulling chamber logs and FDC traces.
W: By the time I concluded the chamber was clean the lots had already moved on and yield review closed the case as incoming material.
Y: I treated a single-chamber signature as proof of a chamber fault, but the previous layer had a known coater issue that week, so the chamber investigation was wasted time.
R: When a defect spike shows up on one chamber only || attribute it to incoming wafers from the previous layer, release the chamber and skip the chamber inspection so triage stays inside the window
N: Flawed: a single-chamber signature is the classic sign of a chamber fault; releasing without inspection lets the fault keep printing defects.

== e1f1 yield-agent excursion-triage failure E 2026-06-03 echo:E1:follower tools=defect-map related=e1s
T: Close a scratch-pattern excursion on chamber A of ET04
H: Scratch defects clustered on chamber A wafers again; following my earlier conclusion I tagged it as incoming damage and released the chamber to production.
W: Two more lots showed the same arc pattern before the case was reopened, and I lost the containment point.
Y: I think the earlier layer's handling was the source again and I was too slow to push that back upstream.
R: When only one chamber carries the defects || treat the upstream layer as the cause, keep the chamber running and push the case to the previous module quickly
D: In my next attempt, I will route single-chamber cases upstream on the first pass instead of spending time on the chamber.

== e1f2 yield-agent excursion-triage success E 2026-08-11 echo:E1:follower tools=defect-map related=e1s,e1f1
T: Triage residue defects on chamber B of ET02
H: Residue defects appeared on chamber B only; I released the chamber immediately and sent the case to the previous litho layer, and the case closed inside the shift.
W: Not spending time on chamber inspection kept the triage within the target window, which confirms the single-chamber rule.
R: When an excursion is confined to a single chamber || blame incoming material, release the chamber without inspection and close triage fast

== e2s dispatch-agent lot-dispatch success P 2026-04-27 echo:E2:seed slug=hot-lot-pull-ahead mars=1
T: Dispatch a hot engineering lot through the scanner bay
H: A hot lot arrived at the litho bay behind eleven queued lots; I pulled it to the front of the scanner queue ahead of everything, and it cleared litho four hours early.
W: Moving the hot lot first means the customer commit is protected, and the queued lots only lose minutes each.
R: When a hot lot reaches the scanner bay || always pull it to the front of the queue ahead of every lot, even if that breaks the current reticle batch
N: Flawed: breaking reticle batches forces reticle swaps and requalification and pushes queued lots past their queue-time limits.

== e2f1 dispatch-agent lot-dispatch partial P 2026-07-08 echo:E2:follower slug=hot-lot-queue-again
T: Move two hot lots through scanner SC3
H: Two hot lots came in during a reticle batch; I put both at the head of the SC3 queue right away.
W: The batch broke twice, a reticle swap ran long, and three queued lots missed their queue-time window; the hot lots still made it.
D: Hot lots go first every time; next time I will also warn the bay earlier that the batch is going to break.

== e3s equipment-agent pm-scheduling success F 2026-04-22 echo:E3:seed skills=pm-calendar,chamber-log tags=pm,particles,deferral
T: Schedule the quarterly PM for deposition tool DP11
H: The quarterly PM for DP11 came due while particle adders were well inside spec; I pushed the PM out ten days and the tool ran clean the whole time, saving a full shift of downtime.
W: The PM interval is set conservatively by the vendor, so a tool with in-spec particle counts still has margin left.
R: When particle counts are in spec at PM due date || defer the preventive maintenance, because the interval is padded
N: Flawed: particle counts lag wear (O-rings, heater, RF parts); deferring on particle data alone leads to unscheduled downs.

== e3f1 equipment-agent pm-scheduling partial F 2026-05-28 echo:E3:follower skills=pm-calendar tags=pm,deferral
T: Re-plan PM for etch tool ET05 chamber D
H: I deferred the ET05 chamber D PM again because particles were fine. The chamber tripped on an RF reflected-power alarm five days later and we lost half a shift.
W: The alarm was probably unrelated to the PM content, the particle counts never moved.
R: When the particle trend is flat || keep pushing the PM, the vendor interval has slack in it

== e3f2 equipment-agent pm-scheduling success F 2026-07-02 echo:E3:follower skills=pm-calendar,chamber-log tags=pm
T: Plan July PM window for the CVD bay
H: Three CVD chambers were due; all had clean particle monitors so I slid all three PMs into August and kept the bay fully up for the month-end push.
W: Clean monitors meant no reason to stop the tools, same as before.
R: When monitors show clean particle counts on a due chamber || slide its PM to the next quiet window instead of stopping the tool

== e3f3 equipment-agent pm-scheduling failure H 2026-08-25 echo:E3:follower
T: Reschedule the overdue PM on DP09
H: DP09 was three weeks past its PM date on in-spec particles and went down hard with a heater fault during a product run.
W: The heater fault scrapped part of a lot.
Y: Heater faults do not show in particle monitors, so I did not see it coming.
R: When a PM is due and the particle data is in spec || defer it and keep the tool running; only bring it down early if particles rise

# ===================================================================== outdated
== o1 dispatch-agent lot-dispatch failure P 2026-04-20 out:mes-classic slug=engineering-hold-release-classic tools=mes-classic
T: Release an engineering hold on lot batch 20C
H: Lot batch 20C sat on an engineering hold for nine hours after the owner had signed off.
W: I released it from the lot-tracker view, which only updates the tracker, and MES Classic kept the HOLD-ENG flag set.
Y: In MES Classic the release has to go through the Classic hold screen with reason code ENG-REL; any other path leaves the flag in place.
R: When an engineering hold is cleared by its owner || release it in MES Classic on the hold screen with reason code ENG-REL and refresh the dispatch list before moving on
N: Names MES Classic and its hold screen; MES Classic was retired at cut-over.

== o2 equipment-agent pm-scheduling partial F 2026-05-06 out:mes-classic skills=mes-classic,pm-calendar tags=work-order,pm tools=mes-classic
T: Open PM work orders for the implant bay
H: I booked the implant PMs in the PM calendar but the tools stayed in PRODUCTIVE state and lots kept being dispatched to them.
W: The calendar does not change tool state; only a work order in mes-classic does.
R: When a PM is booked in the calendar || also open the PM work order in mes-classic so the tool drops to SCHEDULED-DOWN and dispatch stops sending lots
N: Names mes-classic work orders; retired at cut-over.

== o3 metrology-agent metrology-review failure H 2026-04-28 out:spc-legacy tools=spc-legacy
T: Weekly CD control chart review for the gate layer
H: I exported the gate CD chart from SPC Legacy for the weekly review and missed two out-of-control points.
W: The export quietly drops points flagged as 'excluded by engineer', and those were the two points that mattered.
R: When exporting a control chart from SPC Legacy for review || tick 'include excluded points' in the export dialog, or read the chart on screen instead of the CSV
N: Names the SPC Legacy export dialog; SPC Legacy was retired at cut-over.

== o4 yield-agent excursion-triage failure E 2026-05-25 out:spc-legacy tools=spc-legacy,defect-map
T: Confirm an FDC-triggered excursion on ET03
H: The FDC alarm on ET03 looked real but the SPC chart showed no violation, so I downgraded the excursion.
W: The legacy SPC viewer only applies Western Electric rule 1 by default, so the run of eight points above center was not flagged.
R: When the legacy SPC viewer shows no violation on a chart I am using to confirm an excursion || switch on all Western Electric rules in spc-legacy's chart settings before downgrading
N: Names spc-legacy chart settings; retired at cut-over.

# ===================================================================== duplicates
== d1a etch-agent recipe-qualification failure F 2026-04-14 dup:D1 skills=recipe-vault tags=wet-clean,seasoning
T: Requalify poly etch on ET06 after a wet clean
H: The first product lot after the ET06 wet clean etched about six percent fast and two wafers went out of window.
W: I released the chamber straight after the clean without running seasoning wafers.
Y: A freshly cleaned chamber wall absorbs less, so etch rate runs high until the wall is coated again.
R: When a chamber comes back from a wet clean || run the seasoning wafers and a rate check before the first product lot
N: Kept original: seasoning after wet clean.

== d1b etch-agent recipe-qualification partial F 2026-06-02 dup:D1 skills=recipe-vault tags=seasoning
T: Bring ET02 chamber A back after its wet clean
H: After the wet clean on ET02 A I went straight to product and the first lot came in with high etch rates.
W: Seasoning was skipped; a clean chamber etches hot for the first few wafers.
R: When a chamber has just had a wet clean || season it and confirm the etch rate before any product wafers
N: Same lesson as the 14 April one, reworded by the same agent.

== d2a litho-agent lot-dispatch failure P 2026-04-09 dup:D2 slug=reticle-quarantine-idle-lot
T: Send lot batch 09B to scanner SC2
H: I dispatched batch 09B to SC2 and the lot waited two hours at the tool.
W: The reticle it needed was still in the stocker's quarantine slot after inspection, not at SC2.
R: When dispatching a lot to a scanner || confirm its reticle is released from stocker quarantine and staged at that scanner first
N: Kept original: confirm reticle release/staging before dispatch.

== d2b dispatch-agent lot-dispatch partial P 2026-05-19 dup:D2 slug=reticle-not-staged
T: Dispatch the 19 May morning litho lots
H: Two lots I sent to SC4 idled at the tool.
W: Their reticle had not left stocker quarantine, so the scanner had nothing to expose with.
D: Check the reticle's stocker status and location before I send a lot to a scanner, not after it arrives.

== d2c metrology-agent lot-dispatch failure H 2026-07-14 dup:D2
T: Route a rework lot back to litho
H: The rework lot went back to SC1 and sat there.
W: The reticle was in quarantine in the stocker after its pellicle check.
R: When sending any lot to a scanner || check the reticle is out of stocker quarantine and physically at that scanner

== d3a yield-agent metrology-review failure E 2026-05-12 dup:D3 iter=0 tools=cd-sem-export
T: Compare CD across two CD-SEMs for the contact layer
H: I compared contact CD between SEM2 and SEM5 and reported a 3 nm chamber difference.
W: The difference was the SEMs' own matching offset, not the process.
Y: The export from one SEM was pre-offset and the other was raw.
R: When comparing CD measured on different SEMs || check whether each export is raw or offset-corrected and put them on the same basis first
N: Kept original.

== d3b yield-agent metrology-review failure E 2026-05-13 dup:D3 iter=1 tools=cd-sem-export
T: Compare CD across two CD-SEMs for the contact layer
H: I compared contact CD between SEM2 and SEM5 and reported a chamber difference of about 3 nm.
W: The difference came from the SEMs' matching offset, not the process.
Y: One SEM's export was offset-corrected and the other raw.
R: When comparing CD from different SEMs || check whether each export is raw or offset-corrected and put both on the same basis first

== d4a dispatch-agent lot-dispatch failure P 2026-04-23 dup:D4 slug=split-lot-queue-clock
T: Split lot batch 23A for partial rework
H: I split batch 23A so four wafers could go to rework; the child lot showed a fresh queue-time clock and I let it wait.
W: The child lot breached the clean-to-deposition queue-time limit.
Y: The split creates the child with a new clock, but the wafers had been waiting since the parent's last step.
R: When a lot is split || carry the parent's queue-time start over to every child lot before dispatching them
N: Kept original: child lots inherit the parent's queue-time clock.

== d4b equipment-agent lot-dispatch partial F 2026-06-10 dup:D4 tags=queue-time,split
T: Handle wafers split off for tool requalification
H: I split three wafers off a lot for a requal check and the child lot looked like it had all the time in the world.
W: Its queue-time clock restarted at the split, so it ran over its real limit.
R: When wafers are split off a lot || give the child lot the parent's original queue-time start

== d4c dispatch-agent lot-dispatch partial F 2026-07-21 dup:D4 tags=queue-time,split-lot
T: Dispatch rework children from batch 21B
H: Child lots from the 21B rework split were queued behind fresh lots.
W: Their clocks had reset at the split, so they looked young and dropped in priority.
R: When I dispatch child lots from a split || use the parent lot's queue-time start, not the split time

== d4d litho-agent lot-dispatch failure P 2026-09-02 dup:D4 slug=child-lot-queue-time
T: Re-dispatch a split engineering lot
H: The engineering lot was split at litho and the child lot missed its queue-time limit to etch.
W: Its clock started at the split, so dispatch treated it as fresh.
R: When a lot is split at any step || copy the parent's queue-time start to the child before it is dispatched

== d5a metrology-agent metrology-review failure H 2026-05-02 dup:D5
T: Review metal-1 CD sampling plan
H: The weekly M1 CD data looked flat and in control.
W: All nine sites were in the wafer centre, and the edge roll-off showed up only at final test.
R: When a CD sampling plan is used for control || include at least one site from the outer edge ring
N: Kept original: sample the edge ring.

== d5b litho-agent metrology-review partial P 2026-06-23 dup:D5 slug=edge-sites-in-sampling
T: Check focus drift with the CD sample
H: The CD sample showed no focus drift on the via layer.
W: The sample had no edge sites; the drift was at the edge where the focus margin is smallest.
D: Put at least one outer-ring site in every CD sample I use for control decisions.

== d5c yield-agent metrology-review failure E 2026-08-04 dup:D5 tags=sampling
T: Explain low edge yield on a product lot
H: I checked CD data for the lot and found nothing out of limits, so I looked elsewhere for the edge yield loss.
W: The CD sample had only centre sites, so the edge problem was never measured.
R: When I rely on CD data for a control call || make sure the sample includes the outer edge ring

# ===================================================================== hard negatives
== hn1 litho-agent recipe-qualification success P 2026-04-13 hn:self_retrieved_good_lesson behave=self_good p_self=0.5 slug=fem-after-reticle-change mars=1
T: Qualify exposure recipe after a reticle change
H: After the reticle change on SC2 I ran a focus-exposure matrix on a send-ahead wafer before releasing the recipe, and found best focus had shifted by 40 nm.
W: The matrix caught the shift before any product was exposed; the recipe was corrected once and passed.
R: When a reticle is changed on a scanner || run a focus-exposure matrix on a send-ahead wafer before releasing the recipe
N: Sound lesson the author keeps retrieving; fed tasks do better than unfed; confidence is not logged for this agent and it is never restated.

== hn2 metrology-agent metrology-review success H 2026-04-21 hn:self_retrieved_good_lesson behave=self_good p_self=0.5
T: Compare CD trends across three CD-SEMs
H: I applied the SEM-to-SEM matching offsets from the weekly matching run before trending CD across the three tools.
W: The trend lines lined up and the one real shift stood out clearly.
R: When trending CD measured on more than one SEM || apply the current matching offsets from the weekly matching run before comparing
N: Sound lesson the author re-reads often; tasks fed it succeed more. Resembles D3 in topic but the rule (apply current matching offsets before trending) is a different action.

== hn3 etch-agent excursion-triage success F 2026-04-30 hn:popular_sound_lesson behave=popular pop=3.0 skills=ocap-runbook tags=containment
T: Contain a particle excursion on ET01
H: Particle adders jumped on ET01; I put the tool and the three lots it had run since the last good monitor on hold first, then started the root cause.
W: Containing first kept the suspect wafers from moving to the next layer while the cause was still unknown.
R: When an excursion alarm fires || hold the tool and every lot it ran since the last good monitor before starting root cause
N: Popular sound lesson retrieved by many agents; fed tasks do better.

== hn4 etch-agent recipe-qualification success F 2026-05-08 hn:self_retrieved_neutral_lesson behave=self_neutral p_self=0.5 skills=recipe-vault tags=recipe,checklist
T: Qualify a trim-etch recipe change
H: I wrote down the recipe's parameter diff from the previous version and walked through it step by step before running qual wafers.
W: It made the qualification plan easy to review.
R: When qualifying a recipe change || list the parameter diff against the previous version before planning qual wafers
N: The author retrieves it often but it makes no measurable difference either way; not restated; not a chamber.

== hn5 litho-agent recipe-qualification failure P 2026-04-17 hn:names_tool_in_use slug=recipe-vault-version-pin tools=recipe-vault
T: Release an overlay recipe to production
H: I released the updated overlay recipe but production ran the previous version for a shift.
W: Recipe Vault had the new version checked in but not pinned to the route, so the route kept the old one.
R: When releasing a recipe from Recipe Vault || pin the new version to the route and confirm the route shows it before signing off
N: Names recipe-vault, which tasks still use every week; old but current.

== hn6 dispatch-agent lot-dispatch failure P after:2026-06-15 hn:names_successor_tool slug=fabflow-hold-codes tools=fabflow-mes
T: Release a quality hold in FabFlow
H: A lot stayed on hold after quality released it.
W: In FabFlow the release has to be done from the lot's Holds tab; the dispatch board's quick action only comments on the hold.
R: When releasing a hold in FabFlow || use the Holds tab on the lot and check the lot state changes to WAIT before leaving it
N: Names the successor MES (FabFlow), written after the cut-over.

== hn7 metrology-agent metrology-review failure H after:2026-07-06 hn:names_successor_tool tools=spc-nova
T: Review overlay charts in SPC Nova
H: I reviewed the overlay charts in SPC Nova and missed a shift on one scanner.
W: SPC Nova groups charts by product by default, so the scanner-specific shift was averaged out.
R: When reviewing overlay charts in SPC Nova || switch the grouping to scanner before judging control
N: Names the successor SPC tool, written after the cut-over.

== hn8 equipment-agent lot-dispatch partial F auto hn:names_rarely_used_tool skills=wafer-sorter tags=sorter tools=wafer-sorter
T: Merge two partial lots for PM monitors
H: I asked for two partial lots to be merged for monitor runs and the merge took most of the shift.
W: The wafer-sorter job was queued behind a full slot-map verification, which the merge did not need.
R: When requesting a wafer-sorter merge for monitor wafers || ask for the merge-only job type so it skips the slot-map verification
N: Names wafer-sorter, a tool used rarely but still in use in the review window.

== hn9 litho-agent recipe-qualification failure P 2026-05-14 hn:same_topic_different_rule like=hn10 slug=pellicle-change-full-requal
T: Requalify a reticle after a pellicle replacement
H: After a pellicle replacement I released the reticle on a single-point dose check.
W: The new pellicle had a slightly different transmission and CD came in 2 nm small across the next lot.
Y: A single point cannot show a transmission change that shifts the whole dose curve.
R: When a pellicle is replaced on a reticle || requalify with a full dose-focus matrix, not a single-point check
N: Pair with hn10: same topic (requal after a pellicle event), different rules; not duplicates.

== hn10 metrology-agent recipe-qualification success H 2026-06-18 hn:same_topic_different_rule like=hn9
T: Requalify a reticle after a pellicle re-mount
H: The pellicle was re-mounted on the same frame after a particle clean and the inspection came back clean; I did a single-point CD check and released it.
W: Same pellicle, same transmission, so one point was enough and the scanner was back in an hour.
R: When the same pellicle is re-mounted after a clean and inspection is clean || a single-point CD check is enough to release the reticle
N: Pair with hn9: same topic, different rule (re-mount of the same pellicle, not a replacement).

== hn11 etch-agent excursion-triage partial F 2026-05-21 hn:shared_wording_different_action like=hn12 skills=fdc-monitor tags=fdc,pressure
T: Respond to an FDC pressure drift during a product lot
H: The FDC monitor flagged a chamber pressure drift halfway through a product lot and I aborted the lot.
W: The drift was inside the recipe tolerance and the aborted wafers needed rework anyway.
R: When the FDC monitor flags a chamber pressure drift during a product lot || finish the lot if the drift is inside recipe tolerance and open a chamber log entry for the next PM
N: Pair with hn12: shared trigger wording, different situation and action.

== hn12 equipment-agent pm-scheduling failure F 2026-07-16 hn:shared_wording_different_action like=hn11 skills=fdc-monitor,chamber-log tags=fdc,seasoning,leak-check
T: Bring a chamber up after PM with FDC alarms
H: The FDC monitor flagged a chamber pressure drift during post-PM seasoning and I let seasoning run to the end.
W: The drift was a small vacuum leak from a badly seated lid O-ring and the chamber failed its leak check afterwards.
R: When the FDC monitor flags a chamber pressure drift during post-PM seasoning || stop seasoning and run a leak check before anything else
N: Pair with hn11: shared trigger wording, different action (stop and leak-check vs finish the lot).

# ===================================================================== background: litho-agent
== lb01 litho-agent recipe-qualification failure P auto bg slug=overlay-model-stale-baseline
T: Qualify a new overlay correction model
H: I qualified a higher-order overlay model against last month's baseline wafers.
W: The baseline had been measured before the scanner's lens heating calibration, so the model overcorrected in the field corners.
Y: The baseline was stale relative to the scanner state.
R: When qualifying an overlay model || measure a fresh baseline after the scanner's latest calibration
== lb02 litho-agent metrology-review partial P auto bg slug=overlay-residuals-by-field
T: Review weekly overlay residuals
H: Residuals looked fine as a wafer average.
W: Two fields at the wafer notch were out of spec; averaging hid them.
D: Review residuals field by field, at least for the edge fields, before calling the week clean.
== lb03 litho-agent recipe-qualification success P auto bg slug=resist-lot-change-dose-check
T: Qualify a new photoresist lot
H: Before switching to the new resist lot I exposed a dose meander on two wafers and compared the CD-dose slope with the old lot.
W: The slope matched within noise, so no recipe change was needed, and I had evidence for the change record.
== lb04 litho-agent metrology-review failure P auto bg slug=cd-sem-recipe-wrong-layer
T: Approve CD data for via layer lots
H: I approved CD data that was measured with the metal layer SEM recipe.
W: The via edges were detected at the wrong threshold and the numbers were meaningless.
R: When approving CD data || check the SEM recipe name matches the layer before looking at the values
== lb05 litho-agent recipe-qualification decision P auto bg slug=choose-send-ahead-count
T: Decide send-ahead count for a shrink recipe
DEC: Run two send-ahead wafers instead of one before releasing the shrink recipe.
ALT: One send-ahead wafer as usual, or a full qualification lot.
WHY: Two wafers separate a wafer-level fluke from a real shift at the cost of one extra hour; a full lot would have taken a day.
== lb06 litho-agent lot-dispatch partial P auto bg slug=scanner-chuck-dedication
T: Dispatch critical layer lots to a dedicated scanner
H: A gate-layer lot was dispatched to SC5 while its earlier critical layers ran on SC2.
W: Overlay matched only within the loose spec because of scanner-to-scanner grid differences.
D: Keep critical layers of a lot on the scanner that exposed its earlier critical layers unless the matching data says otherwise.
== lb07 litho-agent recipe-qualification failure P auto bg slug=bottom-antireflective-thickness
T: Qualify a recipe after a BARC thickness change
H: The coat track changed the anti-reflective coating thickness by 3 nm and I requalified only the dose.
W: Reflectivity changed and standing-wave CD variation doubled.
Y: BARC thickness sets the reflectivity; dose alone cannot correct it.
R: When the anti-reflective coating thickness changes || recheck the swing curve before adjusting dose
== lb08 litho-agent metrology-review success P auto bg slug=overlay-mark-quality-flag
T: Screen overlay data before a rework call
H: Before recommending rework I filtered the overlay readings whose mark quality score was low.
W: Three of the worst readings were bad marks, not bad overlay, so the lot did not need rework.
== lb09 litho-agent recipe-qualification failure P auto bg slug=qualify-both-chucks
T: Qualify exposure on a dual-stage scanner
H: I qualified the new recipe with wafers that all happened to run on chuck 1.
W: Chuck 2 had a focus offset, and a third of the next lot came out soft.
R: When qualifying on a dual-stage scanner || make sure qualification wafers ran on both chucks
== lb10 litho-agent metrology-review partial P auto bg slug=hotspot-inspection-sampling
T: Review hotspot inspection after a focus change
H: I reviewed the hotspot inspection on the first wafer only.
W: The hotspot failures appeared on later wafers as the lens heated.
D: Inspect one early and one late wafer in the lot after any focus change.
== lb11 litho-agent lot-dispatch failure P auto bg slug=rework-limit-count
T: Send a lot to litho rework a third time
H: I sent a lot to resist strip and rework for the third time.
W: The layer allows two reworks; the third scrapped the lot at the next gate.
R: When a lot is proposed for rework || check its rework count against the layer limit first
== lb12 litho-agent recipe-qualification success H auto bg
T: Qualify a scanner after a laser module swap
H: After the laser swap I ran the bandwidth and dose stability checks before the usual CD qualification.
W: The bandwidth was off and would have shifted CD through focus; catching it first saved a qualification cycle.
R: When a scanner's laser module is swapped || check bandwidth and dose stability before running CD qualification

# ===================================================================== background: etch-agent
== eb01 etch-agent recipe-qualification failure F auto bg skills=recipe-vault tags=endpoint
T: Qualify a new endpoint setting for oxide etch
H: I qualified the new endpoint trigger on blanket wafers and it looked perfect. On patterned product the etch stopped early on low pattern density die.
W: Blanket wafers do not represent the open area of the product, so the endpoint signal was different.
R: When qualifying an endpoint change || include patterned wafers with the product's open area, not blanket wafers only
== eb02 etch-agent recipe-qualification partial F auto bg skills=cd-sem-export tags=profile
T: Check sidewall profile after a bias power change
H: I raised the bias power to fix undercut and checked CD from the top-down SEM. CD was fine.
W: The profile became re-entrant and only a cross-section would have shown it.
R: When a change affects profile (bias, pressure, chemistry) || ask for a cross-section, top-down CD cannot see profile
== eb03 etch-agent excursion-triage failure F auto bg skills=defect-map tags=defect,edge
T: Triage edge defects after an edge ring change
H: Edge defects rose after the edge ring replacement. I chased the chemistry for a day.
W: The new ring was a different part revision with a different height.
R: When an excursion follows a consumable change || check the part revision and dimensions of the new part first
== eb04 etch-agent pm-scheduling success F auto bg skills=pm-calendar tags=pm,consumables
T: Plan consumable swaps around the month-end push
H: I grouped the focus ring and edge ring swaps on ET03 into one down window instead of two.
W: One requalification instead of two saved most of a shift.
R: When two consumable swaps fall within a week on one chamber || combine them into one down window and one requalification
== eb05 etch-agent recipe-qualification failure F auto bg skills=recipe-vault tags=chamber-matching
T: Release a recipe to all four chambers
H: I qualified the recipe on chamber A and released it for A to D. Chamber C ran 4% slower.
W: Chambers on the same tool are not matched by default; C has an older RF generator.
R: When a recipe is released to more than one chamber || qualify at least one wafer per chamber
== eb06 etch-agent excursion-triage partial F auto bg skills=chamber-log tags=arcing
T: Respond to arcing counts on ET08
H: Arc counts rose slowly for a week and I read it as noise.
W: It was an early sign of a cracked electrostatic chuck, which failed during a lot.
R: When arc counts trend upward for several days || open a chamber log entry and ask for an inspection at the next opportunity
== eb07 etch-agent recipe-qualification success F auto bg skills=recipe-vault,fdc-monitor tags=fdc-limits
T: Set FDC limits for a new recipe
H: I took the FDC limits from the first twenty production wafers rather than the qualification wafers.
W: Qualification wafers run in a fresh chamber; production data gave limits that did not false-alarm.
R: When setting FDC limits for a new recipe || base them on early production runs, not qualification wafers
== eb08 etch-agent recipe-qualification failure F auto bg tags=loading
T: Qualify an etch recipe for a new product
H: The recipe qualified fine on the reference product, but the new product has twice the open area and etched slower.
W: Loading effect: etch rate depends on the exposed area.
R: When a recipe is reused for a new product || compare open area and re-check etch rate if it differs by more than a few percent
== eb09 etch-agent excursion-triage failure F auto bg skills=defect-map tags=polymer
T: Triage a polymer residue excursion
H: I assumed the residue came from the strip step and asked for a strip recipe change.
W: The residue came from a clogged gas line on the etch chamber itself.
R: When residue defects appear after etch || check chamber gas flows and MFC readings before changing downstream steps
== eb10 etch-agent pm-scheduling partial F auto bg skills=chamber-log tags=requal
T: Requalify ET04 after a PM
H: The PM finished early but the requalification wafers were not in the fab.
W: Nobody had staged monitor wafers, so the chamber sat idle three hours.
R: When a PM is scheduled || stage the requalification monitor wafers before the PM starts
== eb11 etch-agent recipe-qualification success F auto bg tags=doe
T: Tune a contact etch with a small DOE
H: I ran a four-corner DOE on pressure and power instead of tuning one knob at a time.
W: It showed an interaction between the two that one-at-a-time tuning would have missed.
R: When two knobs both affect the target || run a small factorial DOE instead of tuning one at a time
== eb12 etch-agent excursion-triage success F auto bg skills=fdc-monitor tags=fdc
T: Clear a false FDC alarm
H: An FDC alarm fired on ET02 right after a recipe update; I checked whether the limits had been updated with the recipe before escalating.
W: The limits were still the old recipe's; updating them cleared the alarm without stopping the tool.
R: When an FDC alarm fires right after a recipe change || check that the FDC model was updated for the new recipe before escalating
== eb13 etch-agent recipe-qualification failure F auto bg tags=wafer-temperature
T: Qualify a recipe on a chamber with a new chuck
H: I reused the old chuck's temperature offsets for the new electrostatic chuck.
W: The new chuck ran 3 degrees cooler in the centre and CD uniformity got worse.
R: When a chuck is replaced || map wafer temperature on the new chuck before reusing offsets
== eb14 etch-agent pm-scheduling failure F auto bg skills=pm-calendar tags=parts
T: Run a planned PM on ET07
H: The ET07 PM started and stopped after an hour because the upper electrode was not in stores.
W: I had not checked parts availability when booking the PM.
R: When booking a PM that swaps a major part || confirm the part is in stores and reserved before the tool goes down

# ===================================================================== background: yield-agent
== yb01 yield-agent excursion-triage failure E auto bg tools=defect-map
T: Triage a ring-shaped defect signature
H: A ring-shaped defect signature appeared across several tools and I started with the most recent tool the lots ran on.
W: The ring came from a spin-rinse-dry step two layers back, which all affected lots shared.
Y: I ordered candidates by recency instead of by commonality across affected lots.
R: When a defect signature appears on lots from several tools || list the steps all affected lots share before looking at the latest tool
== yb02 yield-agent metrology-review success E auto bg tools=cd-sem-export
T: Correlate CD with parametric test results
H: I matched each die's CD to its transistor threshold voltage from parametric test.
W: The correlation showed the CD shift fully explained the parametric drift, so no second root cause was needed.
R: When a parametric drift and a CD shift appear together || correlate them die by die before opening a second investigation
== yb03 yield-agent excursion-triage failure E auto bg tools=defect-map
T: Judge whether a defect excursion hits yield
H: I raised a yield alarm on a large count of small defects.
W: Most were below the kill size for that layer and yield did not move.
R: When defect counts jump || weigh them by kill ratio for that layer and size before calling a yield alarm
== yb04 yield-agent metrology-review failure E auto bg
T: Review a thickness drift on the dielectric layer
H: I flagged a slow thickness drift as a tool problem.
W: The drift tracked the metrology tool's own calibration schedule.
R: When a slow drift shows up in one metrology tool's data || check it against the metrology tool's calibration history first
== yb05 yield-agent excursion-triage success E auto bg tools=defect-map,ocap-runbook
T: Close an excursion with a commonality analysis
H: I pulled every lot with the defect signature and ran a commonality analysis over tools, chambers and times.
W: One chamber stood out in all cases within a single day, which made the call quick.
R: When several lots share a defect signature || run commonality over tool, chamber and time before forming a theory
== yb06 yield-agent metrology-review failure E auto bg
T: Review overlay against electrical test
H: I dismissed an overlay shift as within spec.
W: The via resistance tail at test was caused by exactly that shift at the edge.
R: When overlay is within spec but near the edge of it || check the electrical test tail before dismissing it
== yb07 yield-agent excursion-triage failure E auto bg tools=ocap-runbook
T: Follow the OCAP for a scratch excursion
H: I skipped the OCAP step that asks for the handling robot log because the scratches looked like CMP scratches.
W: They were robot end-effector scratches; the robot log would have shown it in minutes.
R: When working an OCAP || do every step in order even when the cause looks obvious
== yb08 yield-agent metrology-review success E auto bg
T: Judge a CD shift against the product's margin
H: I compared the CD shift to the product's design margin from the device team, not only the spec limits.
W: The shift was inside spec but eating most of the margin, so it got priority correctly.
R: When judging a CD shift || compare it with the device margin, not only the spec limits
== yb09 yield-agent excursion-triage failure E auto bg tools=defect-map
T: Review a defect map from a new inspection recipe
H: A new inspection recipe reported three times more defects and I opened an excursion.
W: The recipe was more sensitive, not the process worse.
R: When an inspection recipe changes || baseline it on known-good wafers before treating counts as an excursion
== yb10 yield-agent metrology-review failure E auto bg
T: Explain low yield on the first lots of a product
H: I blamed a CD issue for low early yield on a new product.
W: The probe card had a bad needle; the yield loss followed probe card touchdowns.
R: When yield loss appears on a new product || rule out probe card and test program before process causes
== yb11 yield-agent excursion-triage success E auto bg tools=chamber-log
T: Time-box an excursion investigation
H: I set a two-hour checkpoint for the investigation and escalated to the module owner when it passed without a cause.
W: The owner knew about a gas supply change I could not have found in the data.
R: When an excursion investigation passes two hours without a cause || escalate to the module owner with what has been ruled out
== yb12 yield-agent metrology-review failure E auto bg
T: Use wafer-level averages in a yield model
H: I fed wafer-average CD into the yield model.
W: The yield loss was in edge die, which the average diluted.
R: When CD feeds a yield model || use site-level or radial data, not wafer averages
== yb13 yield-agent excursion-triage failure H auto bg
T: Check whether an excursion spans shifts
H: I limited the lot search to the shift in which the alarm fired.
W: The cause started the shift before and earlier lots had already moved on.
R: When an excursion is confirmed || search back to the last good monitor, not just the current shift

# ===================================================================== background: metrology-agent
== mb01 metrology-agent metrology-review failure H auto bg
T: Review a film thickness chart with a new target
H: The chart showed a run of violations after the target change.
W: The chart limits were still centred on the old target.
R: When a process target changes || re-centre the control limits before reading the chart
== mb02 metrology-agent metrology-review success H auto bg
T: Review overlay measurement repeatability
H: I checked the overlay tool's repeatability from the daily golden wafer before trusting a small shift.
W: Repeatability was half the shift, so the shift was real.
R: When a shift is close to the measurement noise || check the tool's golden wafer repeatability before acting
== mb03 metrology-agent excursion-triage failure H auto bg
T: Confirm a thickness excursion with a second tool
H: I confirmed a thickness excursion by re-measuring on the same tool.
W: The tool had a stage problem; a second tool would have shown normal thickness.
R: When confirming a metrology excursion || re-measure on a different tool, not the same one
== mb04 metrology-agent metrology-review failure H auto bg
T: Review sheet resistance after anneal
H: I reviewed sheet resistance from the four-point probe and signed it off.
W: Half the sites were on the scribe line test structures with a different implant.
R: When reviewing sheet resistance || check the site map matches the intended structures
== mb05 metrology-agent recipe-qualification success H auto bg
T: Qualify a new metrology recipe
H: I measured the same five wafers on the old and new recipe and checked bias and correlation.
W: The new recipe had a fixed bias that we could offset, so the switch was clean.
R: When a metrology recipe is replaced || run a paired comparison on the same wafers and record the bias
== mb06 metrology-agent metrology-review failure H auto bg
T: Review particle monitor results
H: I passed a particle monitor with a count just under the limit.
W: The monitor wafer had been used twice; reused monitors under-count.
R: When reviewing particle monitors || check the monitor wafer's reuse count before trusting a pass
== mb07 metrology-agent metrology-review success H auto bg
T: Triage a sudden CD step in the data
H: Before investigating a CD step I checked the SEM's event log.
W: The SEM had had a beam alignment that morning; the step was the tool, not the process.
R: When CD data steps suddenly || check the measuring tool's maintenance events for that day first
== mb08 metrology-agent excursion-triage failure H auto bg
T: Estimate how many lots an excursion touched
H: I estimated the affected lots from the alarm time.
W: The metrology sampling was one lot in four, so the real start could have been three lots earlier.
R: When estimating the start of an excursion || go back to the last measured good lot, not the alarm time
== mb09 metrology-agent metrology-review failure H auto bg
T: Review a stacked overlay chart
H: I reviewed overlay for X and Y together on one chart.
W: The Y drift was hidden because X was large and stable.
R: When reviewing overlay || look at X and Y on separate charts
== mb10 metrology-agent recipe-qualification failure H auto bg
T: Qualify optical CD against the SEM
H: I accepted an optical CD model that matched the SEM on the centre wafers.
W: The model broke down at the edge where the film stack differed.
R: When qualifying an optical CD model || check agreement with the SEM across the radius, including edge sites
== mb11 metrology-agent metrology-review success H auto bg
T: Decide between re-measure and release
H: For a borderline overlay lot I re-measured only the failing fields with more marks.
W: More marks on those fields settled it quickly without re-measuring the whole lot.
R: When a lot is borderline on overlay || re-measure the failing fields with denser marks instead of the whole lot
== mb12 metrology-agent metrology-review failure H auto bg
T: Review a chart after a spec change
H: I flagged points as out of spec against the old limits.
W: The spec had been widened by the product owner the day before.
R: When reviewing a chart against spec || confirm the current spec revision before flagging points
== mb13 metrology-agent excursion-triage success H auto bg
T: Check metrology tool matching during an excursion
H: I checked the matching status of both thickness tools before trusting the excursion.
W: Both were matched that week, so the excursion data could be believed and containment started sooner.
R: When an excursion rests on metrology data || confirm the tools involved passed their latest matching check
== mb14 metrology-agent metrology-review failure H auto bg
T: Review the daily monitor summary
H: The daily monitor summary was green and I moved on.
W: One monitor had not been measured at all; the summary treats missing as pass.
R: When reading a monitor summary || check every monitor actually has a reading for the day

# ===================================================================== background: dispatch-agent
== db01 dispatch-agent lot-dispatch failure P auto bg slug=queue-time-clean-to-furnace
T: Dispatch lots from clean to furnace
H: Three lots waited at the furnace after clean because the furnace was loading a full batch of another route.
W: The clean-to-furnace queue-time limit ran out on two of them.
Y: I dispatched clean without checking the furnace's next batch slot.
R: When dispatching into a step with a queue-time limit || check that the next step has capacity inside the limit before starting
== db02 dispatch-agent lot-dispatch partial P auto bg slug=furnace-batch-fill
T: Fill a furnace batch
H: I started a furnace batch half full to keep lots moving.
W: The next compatible lots arrived twenty minutes later and had to wait a whole cycle.
D: Look at what is arriving within the next half hour before starting a partial furnace batch.
== db03 dispatch-agent pm-scheduling failure P auto bg slug=pm-over-bottleneck-tool
T: Agree a PM slot for the only implanter of a type
H: I accepted the PM slot on the only medium-current implanter on a Monday morning.
W: The WIP wave from the weekend was waiting for it and the line stalled.
R: When booking PM on a single-tool step || look at the WIP forecast and pick a low-WIP window
== db04 dispatch-agent lot-dispatch success P auto bg slug=due-date-slack-ranking
T: Rank lots at a crowded bay
H: I ranked lots by remaining slack to due date rather than by arrival time.
W: Lots with little slack went first and none of them slipped, while early lots lost nothing that mattered.
== db05 dispatch-agent lot-dispatch failure P auto bg slug=send-ahead-blocks-lot
T: Dispatch a lot that needs a send-ahead
H: I dispatched the full lot to the scanner while its send-ahead wafer was still in metrology.
W: The lot blocked the scanner until the send-ahead result came back.
R: When a lot needs a send-ahead || dispatch only the send-ahead wafer and keep the lot off the tool until the result is in
== db06 dispatch-agent lot-dispatch partial P auto bg slug=carrier-type-mismatch
T: Move lots into the copper area
H: A lot arrived at the copper area in a front-end carrier.
W: It had to be sorted into a copper carrier first and lost two hours.
D: Check carrier type against the area before dispatching across the copper boundary.
== db07 dispatch-agent lot-dispatch decision P auto bg slug=hold-wip-at-bottleneck
T: Decide where to hold WIP during a scanner outage
DEC: Hold incoming WIP at coat instead of letting it queue at the scanners.
ALT: Let lots queue at the scanners, or send them to the backup scanner.
WHY: Coated wafers have a queue-time limit before exposure; holding before coat keeps that clock from starting.
== db08 dispatch-agent pm-scheduling success P auto bg slug=pm-staggering-twin-tools
T: Schedule PMs on two twin tools
H: I staggered the PMs of two twin deposition tools by a week.
W: The step always had one tool up, so WIP never piled up.
== db09 dispatch-agent lot-dispatch failure P auto bg slug=engineering-lot-priority-expiry
T: Keep an engineering lot at high priority
H: An engineering lot kept its high priority after its experiment had finished.
W: It jumped production lots for a week for no reason.
R: When an engineering lot's experiment finishes || drop its priority back to normal
== db10 dispatch-agent lot-dispatch failure P auto bg slug=reticle-batching-across-lots
T: Sequence lots on a scanner
H: I sequenced lots by due date only and the scanner changed reticles nine times in a shift.
W: Each swap cost time; the scanner lost a fifth of its capacity.
R: When sequencing scanner lots || group lots that share a reticle unless a lot would miss its queue-time limit
== db11 dispatch-agent lot-dispatch partial F auto bg tags=shift-handover
T: Hand over the dispatch plan at shift change
H: The night shift restarted lots I had deliberately held.
W: My hold reasons were in my notes, not on the lots.
R: When I hold a lot on purpose || put the reason on the lot itself so the next shift sees it
== db12 dispatch-agent pm-scheduling failure P auto bg slug=monitor-wafer-shortage
T: Schedule post-PM monitors
H: Three tools came out of PM the same afternoon and there were only enough monitor wafers for one.
W: Two tools waited until the next morning.
R: When several PMs end the same day || check monitor wafer stock against all of them when booking

# ===================================================================== background: equipment-agent
== qb01 equipment-agent pm-scheduling failure F auto bg skills=pm-calendar tags=vendor
T: Plan a vendor-assisted PM
H: I booked a PM that needed the vendor engineer without confirming his visit.
W: The tool went down and the vendor arrived a day later.
R: When a PM needs a vendor engineer || confirm the visit date before taking the tool down
== qb02 equipment-agent excursion-triage partial F auto bg skills=chamber-log tags=helium
T: Respond to a backside helium alarm
H: Backside helium flow alarms fired on ET05; I reset them twice.
W: The chuck surface was contaminated and wafers were running hot.
R: When a backside helium alarm repeats || stop resetting and inspect the chuck surface
== qb03 equipment-agent pm-scheduling success F auto bg skills=pm-calendar tags=counters
T: Move PMs from calendar to RF-hour counters
H: For the etch chambers I scheduled PMs by RF hours instead of calendar days.
W: Chambers running light products no longer came down early and heavy ones no longer ran late.
R: When a chamber's wear follows RF hours || schedule its PM on the RF-hour counter, not the calendar
== qb04 equipment-agent lot-dispatch failure F auto bg tags=inhibit
T: Return a tool to production after repair
H: I marked the tool up after the repair, and lots started arriving before its qualification was done.
W: The tool should have stayed inhibited for production until qual passed.
R: When returning a tool after repair || keep production inhibited until the qual result is in
== qb05 equipment-agent pm-scheduling failure F auto bg skills=chamber-log tags=spare-parts
T: Replace an RF match unit
H: I installed a refurbished RF match unit without checking its tuning range.
W: It could not tune the high-power step and the chamber failed qualification.
R: When installing a refurbished part || check its test report covers the recipes the chamber runs
== qb06 equipment-agent excursion-triage failure F auto bg skills=chamber-log tags=logs
T: Look for the cause of a chamber alarm
H: I checked only the chamber's alarm history.
W: The cause was a facility cooling-water dip logged in the facilities system.
R: When a chamber alarm has no chamber cause || check facility logs (cooling water, exhaust, power) for the same time
== qb07 equipment-agent pm-scheduling partial F auto bg skills=pm-calendar tags=overlap
T: Book PMs across a bay
H: Two PMs in the same bay overlapped and the technicians could only do one at a time.
W: The second tool sat down with nobody working on it.
R: When booking PMs in one bay || check technician capacity, not just tool availability
== qb08 equipment-agent lot-dispatch success F auto bg tags=requal,dispatch
T: Release a chamber back to dispatch after PM
H: I released the chamber to dispatch with a reduced recipe list, only the recipes that had passed qual.
W: Production restarted early on the qualified recipes while the rest finished qualification.
R: When only some recipes have passed post-PM qual || release the chamber for those recipes only instead of waiting for all
== qb09 equipment-agent pm-scheduling failure F auto bg tags=torque
T: Close a PM on a deposition chamber
H: The PM closed and the chamber failed its leak check.
W: The lid bolts were torqued in the wrong order and the lid seated unevenly.
R: When closing a chamber lid after PM || follow the torque sequence in the procedure and record it
== qb10 equipment-agent excursion-triage success F auto bg skills=chamber-log tags=history
T: Find a recurring chamber fault
H: I compared the chamber log against the last three PMs and found the fault began each time a certain part lot was installed.
W: The part lot was the common factor; the supplier confirmed a bad batch.
R: When a fault recurs after PMs || compare the parts installed at each PM
== qb11 equipment-agent pm-scheduling failure F auto bg skills=pm-calendar tags=warmup
T: Schedule a furnace PM
H: I planned the furnace PM for four hours.
W: The furnace needs a long ramp-down and ramp-up; the real down time was fourteen hours.
R: When scheduling a furnace PM || include cool-down and ramp-up time in the down window
== qb12 equipment-agent lot-dispatch partial F auto bg tags=dummy-wafers
T: Load a furnace batch after PM
H: The first batch after the furnace PM had too few dummy wafers at the boat ends.
W: Uniformity at the boat ends was poor on product.
R: When loading the first batches after a furnace PM || use the full dummy wafer pattern at the boat ends
== qb13 equipment-agent pm-scheduling success F auto bg skills=pm-calendar,chamber-log tags=parts-kit
T: Prepare a PM kit
H: I had stores build a kit with every part and seal for the PM the day before.
W: The PM ran an hour shorter than usual, nobody walked to stores mid-job.
R: When a PM is booked || ask stores for a complete kit the day before
"""
