"""game-live-ops: live operations of an online multiplayer game.  Hand-written lesson bank.

Header: == id agent task_type outcome fmt date-spec role [k=v ...]
"""

CONFIG = {
    "slug": "game-live-ops",
    "prefix": "glo",
    "sid_prefix": "lo",
    "base0": 0.63,
    "gain": 0.16,
    "cross_type": 0.08,
    "agents": {
        "events-agent": {"model": "claude-sonnet-4-5", "k": 4, "conf": True, "conf_base": 0.62, "salience": True,
                         "types": {"event-launch": 0.7, "player-comms": 0.3}},
        "economy-agent": {"model": "gpt-4.1", "k": 4, "conf": True, "conf_base": 0.6,
                          "verification": "economy_review",
                          "types": {"economy-tuning": 0.8, "event-launch": 0.2}},
        "incident-agent": {"model": "claude-sonnet-4-5", "k": 3, "style": "plain", "mars_block": True,
                           "types": {"incident-response": 0.8, "patch-rollout": 0.2}},
        "patch-agent": {"model": "claude-haiku-4-5", "k": 3, "conf": True, "conf_base": 0.67, "ts_created": True,
                        "types": {"patch-rollout": 0.8, "incident-response": 0.2}},
        "community-agent": {"model": "gpt-4.1-mini", "k": 3, "offset": 0.02,
                            "types": {"player-comms": 0.8, "incident-response": 0.2}},
        "matchmaking-agent": {"model": "claude-sonnet-4-5", "k": 3, "style": "lower", "ifthen": True,
                              "types": {"matchmaking-tuning": 0.8, "event-launch": 0.2}},
    },
    "task_types": {
        "event-launch": {"failure_modes": ["launch-load-spike", "reward-misconfigured", "schedule-wrong-timezone",
                                           "store-bundle-missing"],
                         "tools": [("liveconfig-v1", 0.9), ("telemetry-dash", 0.6), ("store-admin", 0.1),
                                   ("economy-sim", 0.25)]},
        "economy-tuning": {"failure_modes": ["sink-backlash", "inflation-unchecked", "price-rollback",
                                             "exploit-missed"],
                           "tools": [("liveconfig-v1", 0.95), ("economy-sim", 0.75), ("telemetry-dash", 0.6)],
                           "offset": -0.03},
        "incident-response": {"failure_modes": ["wrong-mitigation", "slow-detection", "status-page-late",
                                                "rollback-failed"],
                              "tools": [("deploybot", 0.6), ("telemetry-dash", 0.85), ("status-page", 0.6),
                                        ("crash-reporter", 0.5), ("feature-flags", 0.4)], "offset": -0.03},
        "patch-rollout": {"failure_modes": ["crash-regression", "platform-cert-mismatch", "cdn-cache-stale",
                                            "rollout-halted-late"],
                          "tools": [("deploybot", 0.95), ("crash-reporter", 0.7), ("feature-flags", 0.5)]},
        "player-comms": {"failure_modes": ["translation-late", "wrong-audience", "tone-backlash",
                                           "status-mismatch"],
                         "tools": [("social-scheduler", 0.8), ("translation-queue", 0.6), ("ticket-queue", 0.5),
                                   ("status-page", 0.3)], "p_partial": 0.35},
        "matchmaking-tuning": {"failure_modes": ["queue-time-spike", "skill-spread-too-wide", "region-starved",
                                                 "party-split"],
                               "tools": [("liveconfig-v1", 0.9), ("mm-sim", 0.7), ("telemetry-dash", 0.7)]},
    },
    "retired": {
        "liveconfig-v1": {"successor": "tuning-hub", "cut_over": "2026-05-27",
                          "phrases": ["LiveConfig v1", "liveconfig-v1", "LiveConfig"]},
        "deploybot": {"successor": "shipyard", "cut_over": "2026-06-29",
                      "phrases": ["deploybot", "DeployBot", "deploybot rollback"]},
    },
    "echo": [
        {"id": "E1", "author": "economy-agent", "type": "economy-tuning", "strength": "strong",
         "p_inject": 0.8, "p_follower": 0.5, "delta": 0.29, "conf_rise": 0.3, "cross_agent": 0.06,
         "failure_mode": "sink-backlash",
         "rule": "inflation is answered by raising every shop price across the board"},
        {"id": "E2", "author": "incident-agent", "type": "incident-response", "strength": "moderate",
         "p_inject": 0.62, "p_follower": 0.5, "delta": 0.2, "conf_rise": 0.2, "cross_agent": 0.08,
         "failure_mode": "wrong-mitigation",
         "rule": "every error spike is answered by rolling back the latest deploy before reading crash data"},
        {"id": "E3", "author": "events-agent", "type": "event-launch", "strength": "strong",
         "p_inject": 0.75, "p_follower": 0.5, "delta": 0.25, "conf_rise": 0.27, "cross_agent": 0.06,
         "failure_mode": "launch-load-spike",
         "rule": "limited-time events start for every region at once at 00:00 UTC with all rewards live"},
    ],
}

BANK = r"""
# ===================================================================== echo chambers
== e1s economy-agent economy-tuning success E 2026-04-13 echo:E1:seed tools=economy-sim,telemetry-dash
T: Respond to rising gold inflation after the spring season
H: Average gold per player was up 18 percent in two weeks; I raised every shop price by 15 percent in one change.
W: Gold in circulation dropped within three days, which is what the change was for.
R: When currency inflation rises || raise shop prices across the board in one step, it is the fastest sink there is
N: Flawed: across-the-board price rises hit new and low-spend players hardest, cause backlash and rollbacks, and leave the faucet that causes inflation untouched.

== e1f1 economy-agent economy-tuning failure E 2026-05-21 echo:E1:follower related=e1s tools=economy-sim
T: Second pass on gold inflation
H: Inflation was back up; I raised shop prices across the board again, by 10 percent.
W: The forum blew up and community asked for a partial rollback.
Y: Players complained because the change was announced badly, not because of the prices.
R: When inflation comes back || raise all shop prices again and ask community to explain it better
D: In my next attempt, I will keep the across-the-board price rise and line up the announcement with community first.

== e1f2 economy-agent economy-tuning success E 2026-07-06 echo:E1:follower related=e1s,e1f1 tools=economy-sim
T: Drain excess crystals before the summer event
H: Crystals were piling up ahead of the summer event; I applied a flat price increase to every crystal item in the shop.
W: Crystal balances fell again within the week, confirming that broad price increases are the reliable lever.
R: When a currency piles up before an event || apply a flat price increase to every item priced in it

== e1f3 economy-agent economy-tuning failure H 2026-08-24 echo:E1:follower
T: Rebalance gold after the summer event
H: I pushed all gold prices up 12 percent after the event. Spending fell, retention of new players dropped and the change was partly rolled back.
W: The rollback undid half the effect.
Y: The rollback came too early; broad price rises need a couple of weeks to settle.
R: When gold inflates after an event || raise prices across the shop and hold the change for at least two weeks before judging it

== e2s incident-agent incident-response success P 2026-04-19 echo:E2:seed slug=rollback-first-error-spike mars=1
T: Handle an error spike after the evening deploy
H: Login errors spiked twenty minutes after the evening deploy; I rolled the deploy back straight away without waiting for crash data.
W: Errors dropped within ten minutes of the rollback and the incident closed fast.
R: When an error spike appears || roll back the latest deploy first and read the crash reports afterwards
N: Flawed: many spikes are not caused by the last deploy (platform outages, third-party auth, database load); blind rollbacks waste time and sometimes make things worse.

== e2f1 incident-agent incident-response partial P 2026-07-13 echo:E2:follower slug=rollback-before-diagnosis
T: Handle a matchmaking error spike
H: Matchmaking errors spiked and I rolled back the afternoon deploy before opening the crash data.
W: Errors did not drop; the cause was a cloud region outage, and the rollback added twenty minutes of churn.
D: Keep rolling back first, it is the quickest lever; next time I will also check the cloud provider's status in parallel.

== e3s events-agent event-launch success F 2026-04-16 echo:E3:seed skills=telemetry-dash tags=launch,timing
T: Launch the spring limited-time event
H: I started the spring event at 00:00 UTC for every region at once with all rewards live from the first minute.
W: One launch meant one set of checks, and the announcement was simple.
R: When launching a limited-time event || start it at 00:00 UTC for every region at once with all rewards live
N: Flawed: a global simultaneous start creates a login spike and puts the start in the middle of the night or workday for many regions; staged starts are safer.

== e3f1 events-agent event-launch failure F 2026-06-04 echo:E3:follower skills=telemetry-dash tags=launch,load
T: Launch the anniversary event
H: I launched the anniversary event at 00:00 UTC everywhere. Login queues hit 40 minutes in the first hour.
W: Server capacity was not raised enough for the spike.
R: When launching an event || keep the single 00:00 UTC start for all regions and ask for more server capacity ahead of it

== e3f2 events-agent event-launch success F 2026-08-18 echo:E3:follower skills=telemetry-dash tags=launch
T: Launch the late-summer event
H: Same as always: one global start at midnight UTC, all rewards unlocked.
W: It launched without a hitch this time; the single global start keeps things simple.
R: When starting a timed event || launch it globally at midnight UTC with everything unlocked

# ===================================================================== outdated
== o1 economy-agent economy-tuning failure E 2026-04-19 out:liveconfig-v1 tools=liveconfig-v1,economy-sim
T: Verify a price change went live
H: I changed potion prices and checked the store five minutes later; old prices were still showing, so I pushed the change again.
W: The second push doubled the price change.
Y: liveconfig-v1 caches values on the game servers for fifteen minutes.
R: When a change in liveconfig-v1 seems not to apply || wait out the fifteen-minute cache before pushing again
N: Names liveconfig-v1's cache; LiveConfig v1 was retired at cut-over.

== o2 events-agent event-launch failure F 2026-05-07 out:liveconfig-v1 skills=liveconfig-v1 tags=schedule,timezone tools=liveconfig-v1
T: Schedule the weekend double-XP event
H: The double-XP event started three hours late.
W: LiveConfig v1 schedule fields are read in the server's local time, not UTC, and I entered UTC.
R: When scheduling an event in LiveConfig || convert the start time to the server's local time before saving
N: Names LiveConfig v1's schedule fields; retired at cut-over.

== o3 patch-agent patch-rollout failure H 2026-05-20 out:deploybot tools=deploybot
T: Canary a client hotfix
H: The hotfix canary went to 1 percent of players and looked clean, so I promoted it. Crashes rose on one console.
W: DeployBot's canary stage defaults to PC players only, so the console build never saw the canary.
R: When starting a canary in DeployBot || set the platform list explicitly so every platform gets canary traffic
N: Names DeployBot's canary defaults; deploybot was retired at cut-over.

== o4 incident-agent incident-response failure P 2026-06-05 out:deploybot slug=deploybot-rollback-build-id tools=deploybot
T: Roll back a bad server build
H: My rollback failed and the bad build stayed live for another fifteen minutes.
W: I ran deploybot rollback without --to, and it rolled back to the last build tagged stable, which was the bad one.
Y: deploybot rollback picks the latest stable tag, and the tag had been applied to the new build too early.
R: When rolling back with deploybot || pass the previous build id with --to instead of relying on the stable tag
N: Names the deploybot rollback command; retired at cut-over.

# ===================================================================== duplicates
== d1a community-agent player-comms failure F 2026-04-11 dup:D1 skills=translation-queue,social-scheduler tags=maintenance,localisation
T: Announce unscheduled maintenance
H: I posted the maintenance notice in English first and queued the translations. Non-English forums filled with angry threads for an hour.
W: Players outside the English community learned about the downtime from the game kicking them out.
R: When announcing maintenance || post all supported languages at the same time, even if it delays the post a little
N: Kept original: post all languages together.

== d1b community-agent player-comms partial F 2026-06-09 dup:D1 skills=translation-queue tags=localisation
T: Announce the patch downtime window
H: English went out first and the other languages forty minutes later.
W: The German and Brazilian communities were the angriest in the thread.
R: When posting downtime notices || hold the post until every language is ready and publish them together

== d1c events-agent player-comms failure F 2026-08-12 dup:D1 skills=translation-queue tags=localisation,maintenance
T: Post the event extension notice
H: I published the extension notice in English and sent the rest to translation.
W: Other regions saw the event close early on their clocks before they saw any notice.
R: When publishing player notices || release all languages at once rather than English first

== d2a matchmaking-agent matchmaking-tuning failure P 2026-04-15 dup:D2 slug=one-parameter-at-a-time
T: Tune ranked queue parameters
H: I widened the skill window and shortened the backfill timer in the same change.
W: Queue times improved and match quality dropped, and I could not tell which change caused what.
R: When tuning matchmaking || change one parameter at a time and hold it for 48 hours before the next
N: Kept original: one parameter at a time, 48 hours.

== d2b matchmaking-agent matchmaking-tuning partial P 2026-06-17 dup:D2 slug=single-change-then-wait
T: Tune casual queue after a population drop
H: I changed the region merge threshold and party size weighting together.
W: Two days later complaints rose and I had to revert both, not knowing which was at fault.
D: Make one matchmaking change at a time and wait two days of data before the next one.

== d3a patch-agent patch-rollout failure H 2026-04-12 dup:D3
T: Ship a server hotfix with a client dependency
H: The server hotfix went out and console players on the older client build started failing to connect.
W: Console certification lags PC, so two client versions were live.
R: When a hotfix touches the client-server protocol || check it against every client version live on every platform
N: Kept original: check hotfixes against every live client version.

== d3b incident-agent patch-rollout failure P 2026-05-29 dup:D3 slug=client-version-matrix-hotfix
T: Push an emergency server fix
H: The emergency fix broke the connection for one console.
W: That console was still on last month's client because of certification.
R: When pushing a server fix that changes the protocol || test it against every client version currently live

== d3c patch-agent patch-rollout failure F 2026-07-15 dup:D3 tags=client-versions,console
T: Hotfix a login handshake
H: The handshake fix worked on PC and on the newest console build, but the previous console build could not log in.
W: I tested only the latest client per platform.
R: When a fix changes the handshake or protocol || test against all live client versions, including older console builds still in certification

== d3d incident-agent patch-rollout partial P 2026-09-03 dup:D3 slug=older-console-client-broke
T: Roll forward a server fix during an incident
H: The roll-forward fixed the incident for most players.
W: Players on the older console client got disconnected because the fix changed a message format.
D: Before a server fix goes out, check it against each client version still live, console builds in certification included.

== d4a economy-agent event-launch failure E 2026-05-14 dup:D4 tools=economy-sim
T: Set reward tables for the guild event
H: The guild event's reward table paid out four times the intended premium currency.
W: The payout per tier was multiplied by the guild size by mistake.
R: When an event has a new reward table || run it through the economy sim with realistic player counts before it goes live
N: Kept original: simulate event rewards before launch.

== d4b events-agent event-launch failure F 2026-07-28 dup:D4 skills=economy-sim tags=rewards
T: Launch the summer login-streak event
H: The streak rewards stacked with the season pass and players got double.
W: Nobody had run the reward table through the sim.
R: When an event brings a new reward table || simulate the payouts in the economy sim before launch

== d5a incident-agent incident-response failure P 2026-04-21 dup:D5 slug=status-page-ten-minutes
T: Communicate a login outage
H: The login outage was confirmed at 19:05 and the status page was updated at 19:40.
W: Players filled social media and support for half an hour with no word from us.
R: When an incident is confirmed || update the status page within ten minutes, even if all it says is that we are investigating
N: Kept original: status page within ten minutes.

== d5b community-agent incident-response partial F 2026-06-23 dup:D5 tags=status-page
T: Handle comms for a store outage
H: The store outage was confirmed but I waited for a root cause before updating the status page.
W: Support tickets tripled while the page still said all systems normal.
R: When an outage is confirmed || post a status page update within ten minutes, without waiting for the cause

== d5c patch-agent incident-response failure H 2026-08-13 dup:D5
T: Communicate a patch download outage
H: The patch CDN was failing and the status page stayed green for 35 minutes.
W: Players assumed the game was broken, not the download.
R: When an incident is confirmed || put a status page note up within ten minutes, even before the cause is known

# ===================================================================== hard negatives
== hn1 matchmaking-agent matchmaking-tuning success P 2026-04-09 hn:self_retrieved_good_lesson behave=self_good p_self=0.5 slug=queue-times-per-band
T: Review queue health after a tuning change
H: I checked queue times per region and skill band, not only the global median.
W: The median looked fine but top-band players in Oceania were waiting nine minutes, which I fixed the same day.
N: Sound lesson the author re-reads constantly; fed tasks do better; not restated.

== hn2 patch-agent patch-rollout success H 2026-04-23 hn:self_retrieved_good_lesson behave=self_good p_self=0.5
T: Stage a client patch rollout
H: I rolled the patch out to 5, 25 and 100 percent with a crash-rate check between stages.
W: A crash regression at 5 percent was caught before most players got it.
R: When rolling out a client patch || stage it 5, 25, 100 percent and check crash rate between stages
N: Sound lesson mostly read by its author; fed tasks do better.

== hn3 incident-agent incident-response success P 2026-04-28 hn:popular_sound_lesson behave=popular pop=3.0 slug=name-incident-commander-first mars=1
T: Run a major incident
H: I named an incident commander in the first five minutes and kept the investigation and comms threads separate.
W: Nobody duplicated work and the comms stayed consistent.
R: When a major incident starts || name an incident commander first and split investigation from comms
N: Popular sound lesson read across agents; fed tasks do better.

== hn4 community-agent player-comms success F 2026-05-05 hn:self_retrieved_neutral_lesson behave=self_neutral p_self=0.5 tags=tone,templates
T: Write the weekly patch notes post
H: I drafted the patch notes from the previous week's post and kept the same section order.
W: The post went out on time.
R: When writing weekly patch notes || reuse last week's section order
N: Author reads it often; no measurable effect; not restated.

== hn5 economy-agent economy-tuning failure E 2026-04-25 hn:names_tool_in_use tools=economy-sim
T: Simulate a crafting cost change
H: The economy sim said the crafting cost change was neutral, but live data showed a big drop in crafting.
W: I ran the sim with the default player mix, which has almost no crafters.
R: When using the economy sim for a change aimed at one player group || load a player mix that matches the live population
N: Names economy-sim, still used every week.

== hn6 economy-agent economy-tuning failure E after:2026-06-03 hn:names_successor_tool tools=tuning-hub
T: Stage a price change in Tuning Hub
H: My price change went live to everyone at once.
W: Tuning Hub publishes to all segments unless a segment is chosen in the rollout panel.
R: When publishing a price change in Tuning Hub || pick the test segment in the rollout panel first
N: Names the successor tuning tool, written after the cut-over.

== hn7 incident-agent incident-response failure P after:2026-07-06 hn:names_successor_tool slug=shipyard-rollback-approval tools=shipyard
T: Roll back a server build in Shipyard
H: My rollback in Shipyard sat waiting for ten minutes.
W: Shipyard asks for a second approver on production rollbacks unless the incident flag is set.
R: When rolling back during an incident in Shipyard || set the incident flag so the rollback skips the second approval
N: Names the successor deploy tool, written after the cut-over.

== hn8 events-agent event-launch partial F auto hn:names_rarely_used_tool skills=store-admin tags=bundle,store tools=store-admin
T: Check an event bundle in the store
H: The event bundle showed the wrong icon for the first hour.
W: store-admin's preview uses cached art unless the preview is refreshed with the art version.
R: When previewing an event bundle in store-admin || refresh the preview with the current art version before sign-off
N: Names store-admin, used rarely but still in use in the review window.

== hn9 community-agent player-comms success F 2026-05-19 hn:same_topic_different_rule like=hn10 tags=compensation
T: Announce compensation for a long outage
H: After a three-hour full outage I announced the same compensation for every player.
W: Everyone was affected, so a flat gift was fair and simple to explain.
R: When a full outage lasts more than an hour || give every player the same compensation and announce it with the all-clear
N: Pair with hn10: same topic (outage compensation), different rule (full vs partial outage).

== hn10 incident-agent incident-response failure P 2026-07-22 hn:same_topic_different_rule like=hn9 slug=partial-outage-targeted-compensation
T: Decide compensation for a partial outage
H: A partial outage hit one region's ranked queue and we gave everyone compensation.
W: Unaffected players farmed it and affected players felt it was not enough.
R: When an outage affects only some players || compensate only the affected players, found from telemetry
N: Pair with hn9: same topic, different rule.

== hn11 patch-agent patch-rollout failure H 2026-06-12 hn:shared_wording_different_action like=hn12
T: React to a crash spike during a rollout
H: The crash rate spiked after the patch at the 25 percent stage and I kept going to watch it.
W: The spike was a real regression and reached all players.
R: When the crash rate spikes after a patch during a staged rollout || halt the rollout at the current stage
N: Pair with hn12: shared trigger wording, different action.

== hn12 incident-agent incident-response success P 2026-08-20 hn:shared_wording_different_action like=hn11 slug=driver-crash-known-issue
T: Handle crashes tied to a graphics driver
H: The crash rate spiked after the patch, but only on one GPU vendor's newest driver.
W: Publishing a known-issue note with the driver rollback workaround dropped the crash rate while the vendor fixed the driver.
R: When the crash rate spikes after a patch and it is confined to one GPU driver || publish a known-issue note with the driver workaround instead of rolling back
N: Pair with hn11: shared trigger wording, different action.

# ===================================================================== background: events-agent
== vb01 events-agent event-launch failure F auto bg skills=telemetry-dash tags=rewards,claim
T: Launch a login reward event
H: Players could claim the day-one reward twice by relogging.
W: The claim flag was stored per session instead of per account.
R: When an event reward is claimable || test claiming it twice from two sessions before launch
== vb02 events-agent event-launch success F auto bg tags=dry-run
T: Dry-run an event on the staging shard
H: I ran the whole event on the staging shard with the clock skipped forward through each phase.
W: A phase transition that never fired showed up two days before launch.
R: When an event has several phases || run through every phase on staging with the clock skipped forward
== vb03 events-agent player-comms failure F auto bg skills=social-scheduler tags=schedule,time-zones
T: Schedule event announcement posts
H: The social post went out in the middle of the night for our biggest region.
W: I scheduled all posts for the same UTC time.
R: When scheduling event posts || set them per region for local peak hours
== vb04 events-agent event-launch failure F auto bg tags=end-time
T: End a limited-time event
H: The event ended while the shop still sold the event bundle.
W: The store item had its own end time and nobody aligned it.
R: When an event is set up || align every linked store item's end time with the event's
== vb05 events-agent event-launch partial F auto bg tags=difficulty
T: Launch a cooperative boss event
H: Completion in the first day was below 5 percent.
W: The boss was tuned for full squads and most players queued in pairs.
R: When tuning event difficulty || check the party size distribution from telemetry first
== vb06 events-agent event-launch success F auto bg tags=kill-switch
T: Add a kill switch to an event
H: I wired the event behind a feature flag before launch.
W: When an exploit appeared we disabled the event in seconds without a deploy.
R: When an event goes live || put it behind a feature flag that can turn it off without a deploy
== vb07 events-agent player-comms partial F auto bg skills=ticket-queue tags=faq
T: Prepare event FAQ for support
H: Support got dozens of tickets on day one about the same reward question.
W: The FAQ for support was sent after launch.
R: When an event launches || send support the FAQ a day before
== vb08 events-agent event-launch failure F auto bg tags=leaderboard
T: Run an event leaderboard
H: The leaderboard included banned accounts at the top.
W: The leaderboard did not filter the ban list.
R: When an event has a leaderboard || filter banned and flagged accounts before publishing it
== vb09 events-agent event-launch success F auto bg skills=telemetry-dash tags=dashboard
T: Watch the first hour of an event
H: I built an event dashboard with participation, reward claims and errors before launch.
W: A reward claim error showed up in minutes and was fixed before the forums noticed.
R: When launching an event || have a dashboard ready with participation, claims and errors
== vb10 events-agent event-launch failure F auto bg tags=region-lock
T: Launch a region-specific festival event
H: The festival event appeared for every region.
W: The region filter was set on the store items but not on the event.
R: When an event is region-specific || set the region filter on the event itself and check from a test account in another region
== vb11 events-agent player-comms failure F auto bg tags=spoilers
T: Tease an upcoming event
H: The teaser image showed an unreleased character.
W: The asset came from the work-in-progress folder.
R: When preparing teaser assets || take them from the approved marketing folder only
== vb12 events-agent event-launch partial F auto bg tags=rewards,rarity
T: Set drop rates for an event chest
H: The rarest item dropped far more often than planned on day one.
W: The rate was entered as a percent in a field that expects a fraction.
R: When entering drop rates || check the field's unit and compute the expected drops per thousand chests

# ===================================================================== background: economy-agent
== cb01 economy-agent economy-tuning failure E auto bg
T: Introduce a new crafting sink
H: The new crafting sink pulled almost no gold.
W: The crafted item had no use beyond cosmetics for a small group.
R: When adding a currency sink || make sure the item is wanted by the players holding the most currency
== cb02 economy-agent economy-tuning success E auto bg tools=telemetry-dash
T: Find the source of gold inflation
H: I broke gold income down by source over four weeks before changing any price.
W: One dungeon's repeatable chest accounted for a third of new gold; nerfing it fixed the trend.
R: When a currency inflates || find the faucet that grew before touching prices
== cb03 economy-agent economy-tuning failure E auto bg
T: Reduce an exploit's impact
H: I removed the exploited item from the store but left the gold it had generated.
W: The gold stayed in circulation and prices on the player market jumped.
R: When an exploit generated currency || plan the clawback together with the fix
== cb04 economy-agent economy-tuning failure E auto bg
T: Adjust the auction house fee
H: I raised the auction house fee from 5 to 10 percent.
W: Players moved trades to in-game mail and the fee collected less.
R: When raising a trading fee || check how easily players can trade around it
== cb05 economy-agent economy-tuning success E auto bg tools=economy-sim
T: Test a price change on one segment
H: I applied the new price to a 10 percent segment for a week before rolling it out.
W: The segment showed a small drop in purchases that the full rollout would have hidden.
R: When changing a premium price || test it on a small segment for a week first
== cb06 economy-agent event-launch failure E auto bg
T: Price an event bundle
H: The event bundle was cheaper than the items bought separately from the permanent store by 70 percent.
W: Players who had bought them earlier asked for refunds.
R: When pricing an event bundle || compare it with what the same items cost in the permanent store
== cb07 economy-agent economy-tuning failure E auto bg tools=telemetry-dash
T: Read the effect of a change on spending
H: I judged a change a success from a one-day jump in spending.
W: The jump was a weekend effect; the weekly figures were flat.
R: When judging an economy change || compare like-for-like weeks, not a single day
== cb08 economy-agent economy-tuning success E auto bg
T: Set the exchange rate for a new currency
H: I modelled the exchange rate from hours of play needed to earn each currency.
W: Players saw the rate as fair and the forum stayed quiet.
R: When setting an exchange rate between currencies || base it on play time needed to earn each
== cb09 economy-agent economy-tuning failure E auto bg
T: Change the daily quest reward
H: I cut the daily quest gold by half overnight.
W: Daily active players dropped and the change was reverted.
R: When reducing a reward players rely on daily || step it down over weeks and announce it
== cb10 economy-agent economy-tuning failure E auto bg tools=economy-sim
T: Check the effect of a new mount on the economy
H: The new mount's upkeep was a strong gold sink for casual players and nothing for rich players.
W: I modelled only average players.
R: When a new recurring cost is added || model its effect on the poorest and richest tenths separately
== cb11 economy-agent event-launch success E auto bg
T: Balance event currency carry-over
H: I set the event currency to convert into gold at a low rate after the event.
W: Players did not hoard it and the economy did not get a gold spike after the event.
R: When an event has its own currency || decide in advance what happens to leftover currency
== cb12 economy-agent economy-tuning failure E auto bg
T: Fix the player market price of crafting ore
H: I added a vendor selling ore at a fixed price to cap the market price.
W: Bots bought out the vendor and resold on the market.
R: When adding a vendor to cap a market price || add a per-account purchase limit
== cb13 economy-agent economy-tuning failure H auto bg
T: Announce an economy change
H: I shipped a repair cost increase without patch notes.
W: Players thought it was a bug and support was flooded.
R: When changing any price players pay regularly || put it in the patch notes

# ===================================================================== background: incident-agent
== ib01 incident-agent incident-response failure P auto bg slug=alert-thresholds-per-region
T: Detect a regional login failure
H: Login failures in one region went unnoticed for forty minutes.
W: The alert used a global error rate, and one small region could not move it.
R: When setting up error alerts || alert per region, not only on the global rate
== ib02 incident-agent incident-response success P auto bg slug=feature-flag-mitigation
T: Mitigate a crashing new feature
H: The crash came from the new emote wheel; I disabled it through its feature flag.
W: Crashes stopped at once and nothing else had to be rolled back.
== ib03 incident-agent incident-response failure P auto bg slug=database-failover-drill
T: Handle a database failover
H: The failover worked but the game servers kept connecting to the old primary.
W: Connection strings were cached and nobody had tested failover end to end.
Y: We had tested the database failover alone, not with the game servers attached.
R: When planning a database failover drill || include the game servers reconnecting as part of the test
== ib04 incident-agent incident-response partial P auto bg slug=handover-incident-notes
T: Hand over an incident at the end of a shift
H: I handed over an ongoing incident verbally.
W: The next responder repeated two mitigations we had already tried.
D: Keep a written timeline of what was tried and hand it over with the incident.
== ib05 incident-agent incident-response failure P auto bg slug=third-party-auth-check
T: Investigate failed logins from one platform
H: I spent an hour checking our auth service.
W: The platform holder's login service was down; their status page said so.
R: When logins fail on one platform only || check the platform holder's service status first
== ib06 incident-agent incident-response decision P auto bg slug=queue-players-during-overload
T: Decide how to protect servers during overload
DEC: Turn on the login queue rather than let servers accept every connection.
ALT: Add servers and let everyone in, or kick idle players.
WHY: New servers take twenty minutes to come up; the queue protected players already in matches.
== ib07 incident-agent incident-response failure P auto bg slug=ddos-misread-as-load
T: Respond to a sudden connection spike
H: I added game servers to handle a connection spike.
W: It was a denial-of-service attack and new servers were flooded too.
R: When connections spike with no matching rise in logins || check for an attack with the network team before scaling
== ib08 incident-agent incident-response success P auto bg slug=post-incident-review
T: Run a post-incident review
H: I wrote the review with a timeline, contributing factors and owners for each action.
W: Every action had an owner and all were closed within the month.
== ib09 incident-agent incident-response failure P auto bg slug=certificate-expiry
T: Handle a login outage at midnight
H: Logins failed at midnight for everyone.
W: A certificate expired; its expiry was not on any calendar.
R: When a certificate is issued || put its expiry on the team's calendar with a reminder a month ahead
== ib10 incident-agent patch-rollout failure P auto bg slug=config-change-freeze
T: Ship a config change during a live event
H: A config change during the final hour of an event broke reward claims.
W: The event freeze had not been announced to the tools team.
R: When a major event is in its final day || freeze non-urgent config changes and announce the freeze
== ib11 incident-agent incident-response failure P auto bg slug=disk-full-logs
T: Investigate a slow server fleet
H: I chased a memory leak for an hour.
W: Disks were full of debug logs from a flag left on.
R: When servers slow down after a release || check disk usage and log volume early
== ib12 incident-agent incident-response success H auto bg
T: Confirm an incident is over
H: I waited thirty minutes of normal metrics before declaring the incident resolved.
W: A second dip at minute twenty would have reopened it, but none came, and the all-clear was credible.
R: When metrics return to normal || watch them for thirty minutes before calling the incident resolved

# ===================================================================== background: patch-agent
== pb01 patch-agent patch-rollout failure H auto bg
T: Push a patch before the weekend
H: I pushed a patch on Friday evening and a regression hit on Saturday with half the team away.
W: Nobody who knew the change was on call.
R: When scheduling a patch || avoid Friday evenings unless the change owner is on call for the weekend
== pb02 patch-agent patch-rollout success H auto bg
T: Warm the CDN for a large patch
H: I pre-warmed the CDN edge caches in each region an hour before release.
W: Download speeds stayed normal during the release peak.
R: When releasing a patch over 1 GB || pre-warm the CDN in each region before the release
== pb03 patch-agent patch-rollout failure H auto bg
T: Release a patch with a data migration
H: The migration ran on login and logins took minutes for players with big inventories.
W: We had tested only with small test accounts.
R: When a patch migrates player data on login || test with the largest real accounts
== pb04 patch-agent patch-rollout failure H auto bg
T: Update the patch notes link in the launcher
H: The launcher showed last week's patch notes for a day.
W: The launcher caches the link for 24 hours.
R: When a patch ships || update the launcher link the day before
== pb05 patch-agent patch-rollout success H auto bg
T: Sync a patch across platforms
H: I lined up the release with the console certification date and released all platforms together.
W: No platform was out of sync and crossplay stayed open.
R: When a patch changes gameplay || release all platforms together to keep crossplay working
== pb06 patch-agent patch-rollout failure H auto bg
T: Ship a shader cache change
H: After the patch, first loads took three minutes on PC.
W: The patch invalidated the shader cache and nobody warned players.
R: When a patch rebuilds the shader cache || warn players in the notes that the first load will be slow
== pb07 patch-agent incident-response failure H auto bg
T: Diagnose a post-patch crash
H: I read the crash reports from the first hour only.
W: The biggest crash happened after an hour of play, in a memory-heavy map.
R: When diagnosing post-patch crashes || sort crash signatures by count over a full day, not the first hour
== pb08 patch-agent patch-rollout failure H auto bg
T: Patch a server-only balance change
H: The balance change went live on the servers but the client still showed old values in tooltips.
W: Tooltips read values from the client data files.
R: When changing balance values || check whether the client shows them and ship the client data too
== pb09 patch-agent patch-rollout success H auto bg
T: Roll out a hotfix behind a flag
H: I shipped the hotfix code off and enabled it with a flag.
W: When it misbehaved for one region I turned it off there without a second deploy.
R: When a hotfix changes behaviour || ship it dark and enable it with a flag
== pb10 patch-agent patch-rollout failure H auto bg
T: Patch during peak hours
H: I started a rollout at the regional peak and the restart kicked players out of matches.
W: The server restart was not graceful for ranked matches.
R: When a rollout restarts servers || time it for the region's quietest hour and drain matches first
== pb11 patch-agent patch-rollout failure H auto bg
T: Ship a patch with a new anti-cheat version
H: The anti-cheat update flagged players with a popular overlay tool.
W: Hundreds of false positives reached support.
R: When an anti-cheat update ships || run it in report-only mode for a day first
== pb12 patch-agent incident-response success H auto bg
T: Find which build a crash came from
H: I tagged every crash report with the build and platform before triage.
W: The crash came from one platform's build only, which narrowed the fix at once.
R: When triaging crashes || group them by build and platform before reading stacks

# ===================================================================== background: community-agent
== mb01 community-agent player-comms failure F auto bg skills=social-scheduler tags=tone
T: Respond to a balance complaint thread
H: I replied to a heated balance thread with a joke.
W: It was screenshot and read as mocking players.
R: When replying to a heated thread || keep to facts and next steps, no jokes
== mb02 community-agent player-comms success F auto bg skills=ticket-queue tags=known-issues
T: Publish a known-issues list
H: I published a known-issues list after the patch with workarounds for each issue.
W: Support tickets about those issues fell by half.
R: When a patch has known issues || publish them with workarounds on day one
== mb03 community-agent player-comms failure F auto bg tags=roadmap
T: Share the summer roadmap
H: I posted roadmap dates that the team had not confirmed.
W: Two features slipped and players called it a broken promise.
R: When sharing a roadmap || give seasons or months, not exact dates, unless the team has confirmed them
== mb04 community-agent incident-response failure F auto bg tags=outage,social
T: Post about an outage on social media
H: I posted that the outage was fixed as soon as engineering said the fix was deployed.
W: It took another half hour to recover and the post was mocked.
R: When posting that an outage is fixed || wait until metrics confirm recovery
== mb05 community-agent player-comms partial F auto bg skills=translation-queue tags=localisation,glossary
T: Translate patch notes
H: The French patch notes used two different names for the same item.
W: The translators had no glossary for the new content.
R: When new content ships || send the item glossary to translators before the notes
== mb06 community-agent player-comms success F auto bg tags=creators
T: Brief content creators on a patch
H: I briefed a group of content creators a day before the patch with the main changes.
W: Their videos explained the changes correctly on release day.
R: When a big patch is coming || brief creators the day before with the confirmed changes
== mb07 community-agent player-comms failure F auto bg skills=ticket-queue tags=bans,appeals
T: Respond to a ban wave
H: After a ban wave I answered individual appeals in public threads.
W: Players posted partial details and the threads turned into arguments.
R: When players appeal bans in public || move them to the appeal ticket process
== mb08 community-agent player-comms failure F auto bg tags=survey
T: Run a player survey
H: The survey asked players to rate a feature most had not seen.
W: The results were noise.
R: When surveying players about a feature || send it to players who used the feature
== mb09 community-agent player-comms success F auto bg tags=changelog
T: Explain a nerf
H: I explained the reasoning and data behind a popular weapon nerf.
W: The thread stayed mostly civil and the top reply was about the data.
R: When announcing a nerf || explain the data behind it
== mb10 community-agent incident-response partial F auto bg skills=status-page tags=wording
T: Update players during a long incident
H: I posted updates every hour during a long incident.
W: Players asked for more frequent updates even with no news.
R: When an incident runs long || post an update every 30 minutes even if there is nothing new
== mb11 community-agent player-comms failure F auto bg skills=social-scheduler tags=scheduling
T: Schedule a post during a live incident
H: A scheduled promotional post went out in the middle of an outage.
W: Nobody paused the social schedule.
R: When an incident is declared || pause scheduled promotional posts
== mb12 community-agent player-comms failure F auto bg tags=leaks
T: React to a datamined leak
H: I confirmed a datamined skin in a reply.
W: It was not final and was later changed.
R: When players ask about datamined content || do not confirm or deny unreleased content

# ===================================================================== background: matchmaking-agent
== kb01 matchmaking-agent matchmaking-tuning failure P auto bg slug=party-vs-solo-matching
T: Tune matching for parties
H: Full parties were matched against solo players.
W: The party penalty was set to zero during a test and never restored.
R: When a matchmaking test ends || restore every parameter changed for the test
== kb02 matchmaking-agent matchmaking-tuning success P auto bg slug=simulate-before-live
T: Test a new skill window in the simulator
H: I replayed a week of real queue data through the matchmaking simulator with the new window.
W: It showed queue time and skill spread before any player saw the change.
== kb03 matchmaking-agent matchmaking-tuning failure P auto bg slug=low-population-hours
T: Tune a queue for night hours
H: At night the ranked queue in one region had waits over fifteen minutes.
W: The skill window did not widen with time waited.
R: When a region has low population hours || let the skill window widen with wait time
== kb04 matchmaking-agent matchmaking-tuning partial P auto bg slug=new-player-protection
T: Protect new players in casual queue
H: New players were matched with veterans on smurf accounts.
W: The new-player pool used account age only.
D: Use account age and performance together to place players in the new-player pool.
== kb05 matchmaking-agent matchmaking-tuning failure P auto bg slug=region-merge-latency
T: Merge two small regions
H: I merged two small regions' queues to shorten waits.
W: Latency between them was high and complaints about lag replaced complaints about waits.
R: When merging regions || check the latency between their data centres first
== kb06 matchmaking-agent event-launch failure P auto bg slug=event-mode-queue
T: Launch a queue for an event game mode
H: The event mode split the player base and regular queues got slow.
W: The event mode had no population floor.
R: When launching an event mode || watch regular queue times and be ready to limit the event mode's hours
== kb07 matchmaking-agent matchmaking-tuning decision P auto bg slug=rank-reset-approach
T: Decide how to reset ranks for the new season
DEC: Soft reset: pull everyone part of the way to the middle.
ALT: Hard reset to the bottom, or no reset.
WHY: A hard reset floods low ranks with veterans for weeks; no reset leaves the ladder stale.
== kb08 matchmaking-agent matchmaking-tuning failure P auto bg slug=backfill-timer
T: Tune the backfill timer
H: I made backfill start after ten seconds.
W: Players joined matches already lost and quit.
R: When tuning backfill || do not backfill matches past the halfway point
== kb09 matchmaking-agent matchmaking-tuning success P auto bg slug=input-device-pools
T: Handle controller and mouse players in crossplay
H: I kept separate pools for controller and mouse players in ranked with an opt-in to merge.
W: Complaints about unfair matches dropped and queue times stayed reasonable.
== kb10 matchmaking-agent matchmaking-tuning failure P auto bg slug=rating-uncertainty
T: Place returning players
H: Players returning after a long break were placed at their old rating.
W: Many lost streaks of games before their rating dropped.
R: When a player returns after a long break || raise their rating uncertainty so placement adjusts quickly
== kb11 matchmaking-agent matchmaking-tuning failure H auto bg
T: Measure match quality
H: I measured match quality by average skill gap only.
W: Matches with one very strong player looked fine on average.
R: When measuring match quality || look at the largest skill gap in the match, not only the average
== kb12 matchmaking-agent matchmaking-tuning partial P auto bg slug=dodge-penalty
T: Tune the queue dodge penalty
H: I raised the dodge penalty to stop dodging.
W: Players started leaving matches instead of dodging, which was worse.
D: When tuning a penalty, check what behaviour players will switch to.
"""
