#include <gtest/gtest.h>

#include "report/judge/scheduler_lines.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report {
namespace {

TEST(SchedulerLines, OneHostPerLineAndSlurmLinesForEach) {
  const std::vector<BadNode> nodes{{"node3", "every directed pair with it (6) is below 0.7 Gb/s"},
                                   {"node7", "its link is down:\tno flow\nreached it"}};
  EXPECT_EQ(bad_nodes_text(nodes),
            "node3\tevery directed pair with it (6) is below 0.7 Gb/s\nnode7\tits link is down: no flow reached it\n");
  EXPECT_EQ(slurm_lines(nodes),
            "scontrol update NodeName=node3 State=DRAIN Reason='gpunet-bench: every directed pair with it (6) is below 0.7 Gb/s'\n"
            "scontrol update NodeName=node7 State=DRAIN Reason='gpunet-bench: its link is down: no flow reached it'\n"
            "# or leave them out of a job: srun/sbatch --exclude=node3,node7\n");
  const DocSection problems = problems_section({{"node3 is slow"}, nodes});
  EXPECT_NE(section_markdown(problems).find("```sh\nscontrol update NodeName=node3"), std::string::npos);
  const std::string html = section_html(problems, 0.8);
  EXPECT_NE(html.find("<pre>scontrol update NodeName=node3 State=DRAIN Reason=&#39;gpunet-bench: every"), std::string::npos) << html;
  EXPECT_EQ(section_console(problems), "# What is wrong:\n#   node3 is slow\n");  // the lines are in the documents
}

TEST(SchedulerLines, NothingBlamedIsAnEmptyListAndNoLines) {
  EXPECT_EQ(bad_nodes_text({}), "");
  EXPECT_EQ(slurm_lines({}), "");
  EXPECT_EQ(section_markdown(problems_section({})), "");
  EXPECT_EQ(section_html(problems_section({}), 0.8), "");
}

// A host name or reason from a hostile results file cannot break out of the shell line.
TEST(SchedulerLines, HostileNamesAndReasonsStayInsideTheirQuotes) {
  const std::vector<BadNode> nodes{{"a;rm -rf /", "x"}, {"-o", "y"}, {"ok-1", "it's \"slow\" \\ $(reboot)"}};
  const std::string lines = slurm_lines(nodes);
  EXPECT_EQ(lines.find("rm -rf"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("NodeName=-o"), std::string::npos) << lines;
  EXPECT_NE(lines.find("NodeName=ok-1 State=DRAIN Reason='gpunet-bench: it s  slow    $(reboot)'"), std::string::npos) << lines;
  EXPECT_NE(lines.find("--exclude=ok-1\n"), std::string::npos) << lines;
  EXPECT_NE(bad_nodes_text(nodes).find("a;rm -rf /\tx\n"), std::string::npos);  // listed, never run
}

TEST(SchedulerLines, LongReasonsAreCut) {
  const std::string lines = slurm_lines({{"n1", std::string(500, 'z')}});
  const auto start = lines.find("Reason='"), end = lines.find('\'', start + 8);
  EXPECT_LE(end - start - 8, 124u) << lines;
  EXPECT_NE(lines.find("zzz...'"), std::string::npos) << lines;
}

}  // namespace
}  // namespace gpunet::report
