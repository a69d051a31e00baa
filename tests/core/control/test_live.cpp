// Live console lines: a member's line travels to rank 0 as a 'live' frame on the control channel
// (over a real connected socket, through Link), bounded in size; rank 0's console writer prints it
// and keeps the progress line out of the way (rewritten on a terminal, plain and rate-limited in a log).
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <sstream>
#include <streambuf>
#include <thread>
#include <vector>

#include "bench/core/console_writer.hpp"
#include "bench/core/control_channel.hpp"
#include "bench/core/control_frame.hpp"

namespace gpunet::bench {
namespace {

TEST(LiveFrame, AMembersLineArrivesWholeThroughALink) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), 0);
  control::Link member{net::Fd(sv[0])}, root{net::Fd(sv[1])};
  const std::string line = "# tcp [b -> a]      1.00-2.00      s      119.185 MB   0.953 Gb/s       0    386.0 KB\n";
  ASSERT_TRUE(member.send(control::frame::live, control::live_payload(line)));
  ASSERT_TRUE(member.send(control::frame::heartbeat));
  std::vector<control::Frame> got;
  for (int tries = 0; tries < 100 && got.size() < 2; ++tries) {
    root.read_available(got);
    if (got.size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (control::Frame{control::frame::live, line}));
  EXPECT_EQ(got[1].type, control::frame::heartbeat);
}

TEST(LiveFrame, PayloadIsBoundedAndEndsInALineFeed) {
  EXPECT_EQ(control::live_payload("x"), "x\n");
  EXPECT_EQ(control::live_payload("x\n"), "x\n");
  const std::string long_line(10000, 'a');
  const std::string p = control::live_payload(long_line);
  EXPECT_EQ(p.size(), control::kMaxLiveLineBytes);
  EXPECT_EQ(p.substr(p.size() - 4), "...\n");
  // The live frame type is distinct from every other.
  for (char t : {control::frame::nonce, control::frame::answer, control::frame::welcome, control::frame::heartbeat,
                 control::frame::enter, control::frame::leave, control::frame::enter_local, control::frame::leave_local,
                 control::frame::record, control::frame::done, control::frame::finished, control::frame::bye, control::frame::quit})
    EXPECT_NE(t, control::frame::live);
}

TEST(ConsoleWriter, ProgressModes) {
  EXPECT_EQ(progress_mode("auto", true), ProgressMode::line);
  EXPECT_EQ(progress_mode("auto", false), ProgressMode::plain);
  EXPECT_EQ(progress_mode("off", true), ProgressMode::off);
  EXPECT_FALSE(progress_mode("fancy", true));
}

TEST(ConsoleWriter, PlainProgressHasNoControlCharactersAndAModestRate) {
  std::ostringstream out, err;
  ConsoleWriter w(out, err, ProgressMode::plain);
  w.progress({"tcp", "tcp matrix round 1/1, forward", 0, 0, 2, 0.0, 4.4});
  w.text("# a record line\n");
  w.progress({"tcp", "tcp matrix round 1/1, reverse", 0, 1, 2, 2.2, 2.2});  // within the gap: not printed
  w.tick();
  w.end_progress();
  EXPECT_EQ(out.str(), "# a record line\n");
  EXPECT_EQ(err.str(), "# progress [tcp] tcp matrix round 1/1, forward  0/2 (0%)  about 4s left\n");
}

TEST(ConsoleWriter, TerminalLineIsClearedBeforeTextAndDrawnAgain) {
  std::ostringstream out, err;
  ConsoleWriter w(out, err, ProgressMode::line);
  w.progress({"mpi", "allreduce", 0, 1, 2, 1.0, std::nullopt});
  w.text("# row\n");
  w.end_progress();
  const std::string line = "\r[mpi] allreduce  1/2 (50%)  about 1s left\x1b[K";
  EXPECT_EQ(err.str(), line + "\r\x1b[K" + line + "\r\x1b[K");
  EXPECT_EQ(out.str(), "# row\n");
}

// A stream that keeps each call it receives apart: on an unbuffered stderr, one call is one write(2).
class ChunkBuf : public std::streambuf {
 public:
  std::vector<std::string> chunks;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    chunks.emplace_back(s, static_cast<size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) chunks.emplace_back(1, static_cast<char>(c));
    return c;
  }
};

// mpirun forwards rank 0's stdout and stderr apart: a progress line written in parts was split by a
// record line of stdout, which then no longer began its line.
TEST(ConsoleWriter, EachLineGoesOutInOneWrite) {
  ChunkBuf out_buf, err_buf;
  std::ostream out(&out_buf), err(&err_buf);
  ConsoleWriter plain(out, err, ProgressMode::plain);
  plain.progress({"tcp", "tcp matrix re-test a -> b", 0, 3, 6, 3.0, 3.0});
  plain.text("# tcp bandwidth retest  a -> b  0.024 Gb/s\n");
  ASSERT_EQ(err_buf.chunks.size(), 1u);
  EXPECT_EQ(err_buf.chunks[0], "# progress [tcp] tcp matrix re-test a -> b  3/6 (50%)  about 3s left\n");
  EXPECT_EQ(out_buf.chunks, std::vector<std::string>{"# tcp bandwidth retest  a -> b  0.024 Gb/s\n"});
  err_buf.chunks.clear();
  ConsoleWriter line(out, err, ProgressMode::line);
  line.progress({"mpi", "allreduce", 0, 1, 2, 1.0, std::nullopt});
  line.text("# row\n");
  EXPECT_EQ(err_buf.chunks, (std::vector<std::string>{"\r[mpi] allreduce  1/2 (50%)  about 1s left\x1b[K", "\r\x1b[K",
                                                      "\r[mpi] allreduce  1/2 (50%)  about 1s left\x1b[K"}));
}

TEST(ConsoleWriter, TimeLeftCountsDown) {
  const auto t0 = ConsoleWriter::Clock::now();
  const report::Progress p{"tcp", "x", 0, 1, 4, 3.0, 30.0};
  const auto later = ConsoleWriter::at(p, t0, t0 + std::chrono::seconds(10));
  EXPECT_DOUBLE_EQ(*later.remaining_s, 20.0);
  EXPECT_DOUBLE_EQ(later.elapsed_s, 13.0);
  EXPECT_DOUBLE_EQ(*ConsoleWriter::at(p, t0, t0 + std::chrono::seconds(100)).remaining_s, 0.0);
}

TEST(ConsoleWriter, OffPrintsNoProgress) {
  std::ostringstream out, err;
  ConsoleWriter w(out, err, ProgressMode::off);
  w.progress({"tcp", "x", 0, 0, 1, 0.0, 1.0});
  w.tick();
  w.text("# line\n");
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(out.str(), "# line\n");
}

}  // namespace
}  // namespace gpunet::bench
