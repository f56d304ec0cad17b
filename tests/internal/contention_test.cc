// Contention-adaptive thread count (src/cpu/contention.h): the policy on made-up figures (an
// injected clock and run-queue waits), the schedstat probe on this process's real threads, and
// a model computing the same bits whether the adaptation runs it on the workers or the caller.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cpu/contention.h"
#include "cpu/thread_pool.h"
#include "test_util.h"

namespace nn {
namespace {

constexpr int64_t kMs = 1'000'000;
// Longer than any uptime: reports below use time 0, the pool the monotonic clock.
constexpr int64_t kForever = int64_t{1} << 60;
// More runnable threads than any machine has cores (the tests force the runnable count).
constexpr int kAllCoresTaken = 1 << 20;

int64_t monotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ContentionPolicy::Config testConfig() {
  ContentionPolicy::Config c;
  c.contendedShare = 0.10;
  c.minProbeIntervalNs = 20 * kMs;
  c.maxProbeIntervalNs = 80 * kMs;
  return c;
}

TEST(ContentionPolicy, StaysParallelWhileThreadsRunFreely) {
  ContentionPolicy p(testConfig());
  int64_t now = 0;
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(p.chooseParallel(now));
    // 5 ms executions, 0.4 ms of run-queue wait: below the 10 % share.
    now += 5 * kMs;
    p.reportParallel(now, 5 * kMs, 400'000);
  }
  EXPECT_FALSE(p.contended());
}

TEST(ContentionPolicy, DropsToOneThreadAfterAContendedExecutionAndProbesLater) {
  ContentionPolicy p(testConfig());
  int64_t now = 0;
  ASSERT_TRUE(p.chooseParallel(now));
  now += 10 * kMs;
  p.reportParallel(now, 10 * kMs, 3 * kMs);  // waited 30 % of the time
  EXPECT_TRUE(p.contended());
  // The next executions run on the caller until the probe interval has passed.
  for (int64_t t = now; t < now + 20 * kMs; t += kMs) EXPECT_FALSE(p.chooseParallel(t)) << t;
  now += 20 * kMs;
  EXPECT_TRUE(p.chooseParallel(now));          // the probe
  EXPECT_FALSE(p.chooseParallel(now + kMs));   // only one probe, even with concurrent starts
}

TEST(ContentionPolicy, BacksOffWhileBusyAndReturnsToTwoThreadsWhenTheCoreIsFree) {
  ContentionPolicy p(testConfig());
  int64_t now = 0;
  ASSERT_TRUE(p.chooseParallel(now));
  p.reportParallel(now + 5 * kMs, 5 * kMs, 5 * kMs);
  now += 5 * kMs;
  EXPECT_EQ(p.probeIntervalNs(), 20 * kMs);
  // Contended probes double the interval, up to the maximum.
  const int64_t expected[] = {40 * kMs, 80 * kMs, 80 * kMs};
  for (int64_t interval : expected) {
    const int64_t probeAt = now + p.probeIntervalNs();
    EXPECT_FALSE(p.chooseParallel(probeAt - 1));
    ASSERT_TRUE(p.chooseParallel(probeAt));
    now = probeAt + 5 * kMs;
    p.reportParallel(now, 5 * kMs, 2 * kMs);
    EXPECT_TRUE(p.contended());
    EXPECT_EQ(p.probeIntervalNs(), interval);
  }
  // A probe that did not wait: two threads again, for every execution.
  const int64_t probeAt = now + p.probeIntervalNs();
  ASSERT_TRUE(p.chooseParallel(probeAt));
  now = probeAt + 5 * kMs;
  p.reportParallel(now, 5 * kMs, 100'000);
  EXPECT_FALSE(p.contended());
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(p.chooseParallel(now + i));
  // And the next contention starts again from the shortest interval.
  p.reportParallel(now + 10 * kMs, 5 * kMs, 5 * kMs);
  EXPECT_EQ(p.probeIntervalNs(), 20 * kMs);
}

TEST(ContentionPolicy, ParsesSchedstat) {
  const char ok[] = "38951980 20110853 23\n";
  EXPECT_EQ(parseRunDelay(ok, strlen(ok)), 20110853);
  const char bad1[] = "38951980\n";
  EXPECT_EQ(parseRunDelay(bad1, strlen(bad1)), -1);
  const char bad2[] = "abc def";
  EXPECT_EQ(parseRunDelay(bad2, strlen(bad2)), -1);
  EXPECT_EQ(parseRunDelay("", 0), -1);
}

TEST(ContentionPolicy, ProbeReadsThisProcessesThreads) {
  ThreadPool pool(2);
  const std::vector<int> tids = pool.workerTids();
  ASSERT_EQ(tids.size(), 1u);
  const int self = static_cast<int>(syscall(SYS_gettid));
  EXPECT_NE(tids[0], self);
  EXPECT_EQ(access(("/proc/self/task/" + std::to_string(tids[0])).c_str(), F_OK), 0);
  RunDelayProbe probe(tids);
  ASSERT_TRUE(probe.usable());
  const int64_t a = probe.totalRunDelayNs();
  EXPECT_GE(a, 0);
  EXPECT_GE(probe.totalRunDelayNs(), a);  // cumulative counters only grow
}

TEST(ContentionPolicy, PoolRunsOnTheCallerOnlyWhileContended) {
  ThreadPool pool(2);
  ContentionPolicy* policy = pool.contentionPolicy();
  ASSERT_NE(policy, nullptr);
  ContentionPolicy::Config c = testConfig();
  c.minProbeIntervalNs = c.maxProbeIntervalNs = kForever;  // no probe during the test
  policy->setConfig(c);
  pool.overrideOthersRunnable(kAllCoresTaken);  // another process holds the second core
  ThreadPool::ExecutionSample sample;
  EXPECT_EQ(pool.beginExecution(&sample), &pool);
  EXPECT_TRUE(sample.measured);
  policy->reportParallel(0, 10 * kMs, 10 * kMs);
  ThreadPool::ExecutionSample single;
  ThreadPool* chosen = pool.beginExecution(&single);
  EXPECT_EQ(chosen->numThreads(), 1);
  EXPECT_FALSE(single.measured);
}

// The same model at 2 threads computes the same bits on the workers and, while the shared
// 2-thread pool counts as contended, on the caller alone; and the same as at 1 thread.
// `layers` CONV_2D + ADD pairs in a chain.
std::vector<float> runModel(uint32_t threads, int layers = 1) {
  nntest::ModelBuilder m;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
  };
  const uint32_t in = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 48, 48, 16});
  uint32_t prev = in, out = in;
  uint32_t channels = 16;
  for (int layer = 0; layer < layers; ++layer) {
    const uint32_t f = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {32, 3, 3, channels},
                                     random(32 * 9 * channels));
    const uint32_t b = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {32}, random(32));
    const uint32_t c1 = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 48, 48, 32});
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {prev, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(0)}, {c1});
    out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 48, 48, 32});
    m.addOperation(ANEURALNETWORKS_ADD, {c1, c1, m.addInt32(0)}, {out});
    prev = out;
    channels = 32;
  }
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> input = random(48 * 48 * 16);
  ANeuralNetworksCompilation* comp = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(m.get(), &comp), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(comp, threads), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(comp), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> result(48 * 48 * 32);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(comp, &e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(), input.size() * sizeof(float));
  ANeuralNetworksExecution_setOutput(e, 0, nullptr, result.data(), result.size() * sizeof(float));
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(comp);
  return result;
}

TEST(ContentionPolicy, SameResultsOnWorkersAndOnTheCaller) {
  ContentionPolicy* policy = ThreadPool::shared(2)->contentionPolicy();
  ASSERT_NE(policy, nullptr);
  const std::vector<float> one = runModel(1);
  ContentionPolicy::Config free = testConfig();
  free.contendedShare = 1e9;  // nothing counts as contended: always the workers
  policy->setConfig(free);
  policy->reportParallel(0, kMs, 0);
  ASSERT_FALSE(policy->contended());
  const std::vector<float> workers = runModel(2);
  ContentionPolicy::Config busy = testConfig();
  busy.contendedShare = 0;
  busy.minProbeIntervalNs = busy.maxProbeIntervalNs = kForever;
  policy->setConfig(busy);
  ThreadPool::shared(2)->overrideOthersRunnable(kAllCoresTaken);  // and no core frees up
  policy->reportParallel(0, kMs, kMs);
  ASSERT_TRUE(policy->contended());
  const std::vector<float> caller = runModel(2);
  EXPECT_TRUE(policy->contended());  // no probe ran: this was the caller alone
  policy->setConfig(ContentionPolicy::Config());
  policy->reportParallel(0, kMs, 0);
  ThreadPool::shared(2)->overrideOthersRunnable(-1);
  ASSERT_EQ(one.size(), workers.size());
  EXPECT_EQ(0, memcmp(one.data(), workers.data(), one.size() * sizeof(float)));
  EXPECT_EQ(0, memcmp(one.data(), caller.data(), one.size() * sizeof(float)));
}

}  // namespace
}  // namespace nn

namespace nn {
namespace {

// A contended probe gives up the workers between operations, without waiting for its end.
TEST(ContentionPolicy, ExecutionLeavesTheWorkersMidwayWhenContended) {
  ThreadPool pool(2);
  ContentionPolicy* policy = pool.contentionPolicy();
  ASSERT_NE(policy, nullptr);
  ContentionPolicy::Config c;
  c.contendedShare = -1;  // any wait, even none, counts as contended
  c.minProbeIntervalNs = c.maxProbeIntervalNs = kForever;
  policy->setConfig(c);
  pool.overrideOthersRunnable(kAllCoresTaken);
  ThreadPool::ExecutionSample sample;
  const int64_t begun = monotonicNs();
  ASSERT_EQ(pool.beginExecution(&sample), &pool);
  // Not judged before the first 2 ms (asserted only when the test was not descheduled that long).
  ThreadPool* early = pool.checkExecution(&sample);
  if (monotonicNs() - begun < 2 * kMs) {
    EXPECT_EQ(early, &pool);
    EXPECT_FALSE(policy->contended());
  }
  // Judged after 2 ms (already at the first check if the test was descheduled before it).
  ThreadPool* rest = early;
  if (early == &pool) {
    usleep(3000);
    rest = pool.checkExecution(&sample);
  }
  EXPECT_EQ(rest->numThreads(), 1);
  EXPECT_TRUE(policy->contended());
  EXPECT_FALSE(sample.measured);  // reported already; endExecution adds nothing
  pool.endExecution(sample);
  ThreadPool::ExecutionSample next;
  EXPECT_EQ(pool.beginExecution(&next)->numThreads(), 1);
}

}  // namespace
}  // namespace nn

namespace nn {
namespace {

TEST(ContentionPolicy, ParsesLoadavgAndStat) {
  const char load[] = "0.90 1.69 2.11 3/87 24904\n";
  EXPECT_EQ(parseLoadavgRunnable(load, strlen(load)), 3);
  const char noSlash[] = "0.90 1.69 2.11 3 87\n";
  EXPECT_EQ(parseLoadavgRunnable(noSlash, strlen(noSlash)), -1);
  const char shortLine[] = "0.90 1.69";
  EXPECT_EQ(parseLoadavgRunnable(shortLine, strlen(shortLine)), -1);
  // The command name may hold spaces and parentheses: the state follows the last ')'.
  const char stat[] = "1234 (a) b (c) R 1 1234 1234 0 -1 4194560 0";
  EXPECT_EQ(parseStatState(stat, strlen(stat)), 'R');
  const char sleeping[] = "99 (nnapi) S 1 99";
  EXPECT_EQ(parseStatState(sleeping, strlen(sleeping)), 'S');
  const char truncated[] = "99 (nnapi)";
  EXPECT_EQ(parseStatState(truncated, strlen(truncated)), 0);
  EXPECT_EQ(parseStatState("", 0), 0);
}

TEST(ContentionPolicy, RunnableProbeReadsThisMachine) {
  ThreadPool pool(2);
  RunnableProbe probe(pool.workerTids());
  ASSERT_TRUE(probe.usable());
  EXPECT_GE(probe.othersRunnable(), 0);
}

// While contended, the caller alone runs only as long as no core is free: between operations
// (at most once a millisecond) a free core brings the workers back, and a measured window opens.
TEST(ContentionPolicy, CallerReturnsToTheWorkersWhenACoreFreesUp) {
  ThreadPool pool(2);
  ContentionPolicy* policy = pool.contentionPolicy();
  ASSERT_NE(policy, nullptr);
  ContentionPolicy::Config c = testConfig();
  c.minProbeIntervalNs = c.maxProbeIntervalNs = kForever;
  policy->setConfig(c);
  policy->reportParallel(0, 10 * kMs, 10 * kMs);
  ASSERT_TRUE(policy->contended());
  pool.overrideOthersRunnable(kAllCoresTaken);
  ThreadPool::ExecutionSample sample;
  ThreadPool* current = pool.beginExecution(&sample);
  ASSERT_EQ(current->numThreads(), 1);
  EXPECT_FALSE(sample.measured);
  usleep(1500);
  const int64_t busySeen = monotonicNs();
  current = current->checkExecution(&sample);
  EXPECT_EQ(current->numThreads(), 1);  // still busy
  pool.overrideOthersRunnable(0);
  ThreadPool* early = current->checkExecution(&sample);
  // Checked less than 1 ms ago: still the caller. Only asserted when this test was not itself
  // descheduled for that long in between (a loaded machine running tests in parallel).
  if (monotonicNs() - busySeen < kMs) {
    EXPECT_EQ(early->numThreads(), 1);
  }
  current = early;
  // Free once no check has seen the cores taken for 2 ms.
  usleep(2500);
  current = current->checkExecution(&sample);
  EXPECT_EQ(current, &pool);
  EXPECT_TRUE(sample.measured);
  // A free core also lets an execution start on the workers without waiting for the probe.
  ThreadPool::ExecutionSample next;
  EXPECT_EQ(pool.beginExecution(&next), &pool);
  EXPECT_TRUE(next.measured);
}

// Once the runnable count has shown a free core, a count saying the cores are taken sends an
// execution to the caller at its next check, before any run-queue wait is measured; a count
// that never showed a free core (a container's view of a whole host) is not trusted to.
TEST(ContentionPolicy, BusyCountLeavesTheWorkersOnlyOnceItHasShownAFreeCore) {
  ThreadPool pool(2);
  ContentionPolicy* policy = pool.contentionPolicy();
  ASSERT_NE(policy, nullptr);
  ContentionPolicy::Config c = testConfig();
  c.contendedShare = 1e9;  // the run-queue wait alone never counts as contended
  c.minProbeIntervalNs = c.maxProbeIntervalNs = kForever;
  policy->setConfig(c);
  pool.overrideOthersRunnable(kAllCoresTaken);
  ThreadPool::ExecutionSample untrusted;
  ASSERT_EQ(pool.beginExecution(&untrusted), &pool);
  usleep(1500);
  const int64_t busySeen = monotonicNs();
  EXPECT_EQ(pool.checkExecution(&untrusted), &pool);
  pool.endExecution(untrusted);
  EXPECT_FALSE(policy->contended());
  pool.overrideOthersRunnable(0);
  ThreadPool::ExecutionSample settling;  // the cores were seen taken less than 2 ms ago
  ThreadPool* settled = pool.beginExecution(&settling);
  // As above: only asserted when the test itself was not descheduled for 2 ms in between.
  if (monotonicNs() - busySeen < 2 * kMs) {
    EXPECT_EQ(settled->numThreads(), 1);
  }
  usleep(2500);
  ThreadPool::ExecutionSample sample;
  ASSERT_EQ(pool.beginExecution(&sample), &pool);
  pool.overrideOthersRunnable(kAllCoresTaken);
  usleep(1500);
  ThreadPool* rest = pool.checkExecution(&sample);
  EXPECT_EQ(rest->numThreads(), 1);
  EXPECT_FALSE(sample.measured);
  EXPECT_TRUE(policy->contended());
  ThreadPool::ExecutionSample next;
  EXPECT_EQ(pool.beginExecution(&next)->numThreads(), 1);
}

// Chunks that stall (as a descheduled worker does) while several callers share the pool and
// executions move between the workers and the caller: every item runs exactly once, the sums
// are those of one thread, and nothing deadlocks (the test ends). No timing is asserted.
TEST(AdaptivePool, StalledChunksAndSwitchingPoolsKeepResults) {
  ThreadPool* pool = ThreadPool::shared(2);
  ContentionPolicy* policy = pool->contentionPolicy();
  ASSERT_NE(policy, nullptr);
  ContentionPolicy::Config flip;
  flip.contendedShare = -1;  // every measured window counts as contended...
  flip.minProbeIntervalNs = flip.maxProbeIntervalNs = kForever;
  policy->setConfig(flip);
  pool->overrideOthersRunnable(0);  // ...and every check finds a core free again
  constexpr size_t kItems = 4096;
  std::vector<double> expected(kItems);
  for (size_t i = 0; i < kItems; ++i) expected[i] = 1.0 / static_cast<double>(i + 1);
  std::atomic<int> serialOps{0}, parallelOps{0};
  auto worker = [&](unsigned seed) {
    std::mt19937 rng(seed);
    for (int round = 0; round < 10; ++round) {
      ThreadPool::ExecutionSample sample;
      ThreadPool* current = pool->beginExecution(&sample);
      std::vector<std::atomic<int>> visits(kItems);
      std::vector<double> out(kItems, 0.0);
      constexpr int kOps = 16;
      constexpr size_t kPerOp = kItems / kOps;
      for (int op = 0; op < kOps; ++op) {
        (current->numThreads() == 1 ? serialOps : parallelOps).fetch_add(1);
        const unsigned stallEvery = 2 + rng() % 3;
        current->parallelFor(kPerOp, 4, [&](size_t begin, size_t end) {
          const size_t base = static_cast<size_t>(op) * kPerOp;
          if ((begin / 4 + static_cast<size_t>(op)) % stallEvery == 0)
            usleep(100 + 50 * (begin % 5));  // a descheduled worker, in effect
          for (size_t i = begin; i < end; ++i) {
            visits[base + i].fetch_add(1, std::memory_order_relaxed);
            out[base + i] = 1.0 / static_cast<double>(base + i + 1);
          }
        });
        // At least 0.4 ms per operation: a round lasts longer than a measured window (2 ms)
        // plus a check interval (1 ms), so each round leaves the workers and comes back.
        usleep(400);
        current = current->checkExecution(&sample);
      }
      pool->endExecution(sample);
      for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(visits[i].load(), 1) << i;
      ASSERT_EQ(0, memcmp(out.data(), expected.data(), kItems * sizeof(double)));
    }
  };
  std::vector<std::thread> callers;
  for (unsigned t = 0; t < 3; ++t) callers.emplace_back(worker, 100 + t);
  for (std::thread& t : callers) t.join();
  EXPECT_GT(serialOps.load(), 0);
  EXPECT_GT(parallelOps.load(), 0);
  pool->overrideOthersRunnable(-1);
  policy->setConfig(ContentionPolicy::Config());
  policy->reportParallel(0, kMs, 0);
}

// A model whose execution moves between the workers and the caller at every operation (each
// window judged contended at once, each check finding a core free) computes the bits of one
// thread.
TEST(AdaptivePool, ModelSwitchingMidExecutionMatchesOneThread) {
  ThreadPool* pool = ThreadPool::shared(2);
  ContentionPolicy* policy = pool->contentionPolicy();
  ASSERT_NE(policy, nullptr);
  const std::vector<float> one = runModel(1, 6);
  ContentionPolicy::Config flip;
  flip.contendedShare = -1;
  flip.minProbeIntervalNs = flip.maxProbeIntervalNs = kForever;
  flip.checkIntervalNs = flip.minWindowNs = 0;  // judged at every operation boundary
  policy->setConfig(flip);
  pool->overrideOthersRunnable(0);
  std::vector<std::vector<float>> results;
  for (int i = 0; i < 5; ++i) results.push_back(runModel(2, 6));
  pool->overrideOthersRunnable(-1);
  policy->setConfig(ContentionPolicy::Config());
  policy->reportParallel(0, kMs, 0);
  for (const std::vector<float>& r : results) {
    ASSERT_EQ(one.size(), r.size());
    EXPECT_EQ(0, memcmp(one.data(), r.data(), one.size() * sizeof(float)));
  }
}

}  // namespace
}  // namespace nn
