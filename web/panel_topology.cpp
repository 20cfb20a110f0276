// panel_topology.cpp: a sketch of the scenario's cluster from core's ClusterSketch: nodes as
// boxes with their GPUs (labelled and coloured by TP group, PP stage or DP group in Megatron's
// rank order), the scale-up domain (NVSwitch, NVLink, xGMI, HCCS or PCIe), the NICs and the
// scale-out fabric between nodes. Large clusters show their first nodes, a gap and the last.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app.hpp"
#include "i18n.hpp"
#include "imgui.h"
#include "llmplan/topology.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

ImU32 group_color(int index, int count) {
  if (count <= 1) return palette::kGpuOneGroup;
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(std::fmod(0.58f + 0.61803f * static_cast<float>(index), 1.0f), 0.55f, 0.80f, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

const char* scale_up_label(ScaleUp s) {
  switch (s) {
    case ScaleUp::nvswitch: return tr(S::topo_nvswitch);
    case ScaleUp::nvlink: return tr(S::topo_nvlink);
    case ScaleUp::infinity_fabric: return tr(S::topo_xgmi);
    case ScaleUp::hccs: return tr(S::topo_hccs);
    default: return tr(S::topo_pcie);
  }
}

void centered_text(ImDrawList* dl, ImVec2 center, ImU32 color, const char* text) {
  const ImVec2 ts = ImGui::CalcTextSize(text);
  dl->AddText(ImVec2(center.x - ts.x / 2, center.y - ts.y / 2), color, text);
}

}  // namespace

bool draw_topology(AppState& app) {
  if (!app.has_result) {
    ImGui::TextDisabled("%s", tr(S::topo_no_result));
    return false;
  }
  TopologyState& t = app.topology;
  const ClusterSketch k = sketch_cluster(app.scenario, app_catalog(app));
  ImGui::Text(tr(S::topo_summary), k.nodes, k.gpus_per_node, k.accelerator.c_str(), k.tp, k.pp, k.dp);
  if (!k.instance.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s)", k.instance.c_str());
  }
  if (k.cp > 1 || k.ep > 1 || k.vp > 1) {
    char more[256];
    std::snprintf(more, sizeof more, tr(S::topo_more_layout), k.cp, k.ep, k.vp);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", more);
    ImGui::PopTextWrapPos();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(S::topo_color_by));
  // Colour modes in RankGroup order; CP and EP only when the layout has them.
  const S modes[] = {S::topo_by_tp, S::topo_by_pp, S::topo_by_dp, S::topo_by_cp, S::topo_by_ep};
  const char* ids[] = {"topology.by_tp", "topology.by_pp", "topology.by_dp", "topology.by_cp", "topology.by_ep"};
  const bool shown_mode[] = {true, true, true, k.cp > 1, k.ep > 1};
  if (!shown_mode[t.color_by]) t.color_by = 0;
  bool changed = false;
  for (int i = 0; i < 5; ++i) {
    if (!shown_mode[i]) continue;
    ImGui::SameLine();
    if (ImGui::RadioButton(tr(modes[i]), t.color_by == i)) {
      t.color_by = i;
      changed = true;
    }
    record_widget(ids[i]);
  }

  const std::vector<int> shown = sketch_nodes(k.nodes, 4);
  const bool gap = static_cast<int>(shown.size()) < k.nodes;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap_w = gap ? 6.0f * em() : 0.0f;
  const float node_gap = 0.8f * em();
  const int n_boxes = static_cast<int>(shown.size());
  const float node_w =
      std::min(34 * em(), (avail - gap_w - node_gap * static_cast<float>(n_boxes - 1)) / static_cast<float>(n_boxes));
  const int gpn = k.gpus_per_node;
  const int cols = gpn <= 4 ? gpn : (gpn + 1) / 2;
  const int rows = (gpn + cols - 1) / cols;
  const float pad = 0.5f * em();
  const float gpu_w = (node_w - 2 * pad - 0.3f * em() * static_cast<float>(cols - 1)) / static_cast<float>(cols);
  const float gpu_h = 2.6f * em();
  const float title_h = 1.4f * em(), switch_h = 1.4f * em(), nic_h = 1.3f * em();
  const float node_h =
      title_h + static_cast<float>(rows) * (gpu_h + 0.3f * em()) + 0.5f * em() + switch_h + 0.7f * em() + nic_h + pad;
  const float fabric_h = k.nodes > 1 ? 4.2f * em() : 1.5f * em();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("topology", ImVec2(avail, node_h + fabric_h));
  record_widget("topology.canvas");
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = palette::kDiagramText, dim = palette::kDiagramMuted, line = palette::kDiagramLine;
  const ImU32 fabric_color = k.rdma ? palette::kFabricRdma : palette::kFabricTcp;
  const float fabric_y = origin.y + node_h + 2.2f * em();
  float x = origin.x;
  std::vector<float> nic_xs;
  const RankGroup colour_group = static_cast<RankGroup>(t.color_by);
  const int group_count = group_of(RankRole{}, k, colour_group).count;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int b = 0; b < n_boxes; ++b) {
    if (gap && b == n_boxes - 1) {  // the nodes in between
      char more[64];
      std::snprintf(more, sizeof more, tr(S::topo_more_nodes), k.nodes - n_boxes);
      centered_text(dl, ImVec2(x + gap_w / 2 - node_gap / 2, origin.y + node_h / 2), dim, more);
      x += gap_w;
    }
    const int node = shown[static_cast<size_t>(b)];
    const ImVec2 a(x, origin.y), z(x + node_w, origin.y + node_h);
    dl->AddRectFilled(a, z, palette::kNodeBox, 0.4f * em());
    dl->AddRect(a, z, line, 0.4f * em());
    char title[48];
    std::snprintf(title, sizeof title, tr(S::topo_node), node);
    dl->AddText(ImVec2(a.x + pad, a.y + 0.25f * em()), text, title);
    // The scale-up domain: a bar every GPU connects to.
    const float sw_y = a.y + title_h + static_cast<float>(rows) * (gpu_h + 0.3f * em()) + 0.5f * em();
    const ImVec2 sa(a.x + pad, sw_y), sz(z.x - pad, sw_y + switch_h);
    dl->AddRectFilled(sa, sz, palette::kScaleUpSwitch, 0.2f * em());
    std::string sw = scale_up_label(k.scale_up);
    if (ImGui::CalcTextSize(sw.c_str()).x > sz.x - sa.x - 0.4f * em()) {    // keep the name, drop the note in brackets
      const size_t cut = std::min(sw.find(" ("), sw.find("\xEF\xBC\x88"));  // ASCII or full-width bracket
      if (cut != std::string::npos) sw.resize(cut);
    }
    centered_text(dl, ImVec2((sa.x + sz.x) / 2, (sa.y + sz.y) / 2), text, sw.c_str());
    for (int g = 0; g < gpn; ++g) {
      const int rank = node * gpn + g;
      if (rank >= k.gpus) break;
      const RankRole role = rank_role(rank, k.tp, k.cp, k.pp, k.dp, k.ep, k.etp);
      const int group = group_of(role, k, colour_group).id;
      const int c = g % cols, r = g / cols;
      const ImVec2 ga(a.x + pad + static_cast<float>(c) * (gpu_w + 0.3f * em()),
                      a.y + title_h + static_cast<float>(r) * (gpu_h + 0.3f * em()));
      const ImVec2 gz(ga.x + gpu_w, ga.y + gpu_h);
      dl->AddLine(ImVec2((ga.x + gz.x) / 2, gz.y), ImVec2((ga.x + gz.x) / 2, sa.y), line, 1.5f);
      dl->AddRectFilled(ga, gz, group_color(group, group_count), 0.25f * em());
      char label[24];
      std::snprintf(label, sizeof label, "T%d P%d", role.tp, role.pp);
      char label2[24];
      if (k.cp > 1)
        std::snprintf(label2, sizeof label2, "C%d D%d", role.cp, role.dp);
      else
        std::snprintf(label2, sizeof label2, "D%d", role.dp);
      const float cx = (ga.x + gz.x) / 2;
      const ImU32 ink = palette::kInkOnGpu;
      if (ImGui::CalcTextSize(label).x < gpu_w - 0.2f * em()) {
        centered_text(dl, ImVec2(cx, ga.y + gpu_h * 0.32f), ink, label);
        centered_text(dl, ImVec2(cx, ga.y + gpu_h * 0.72f), ink, label2);
      } else {  // narrow: only the role the colours show
        char one[16];
        const int index[] = {role.tp, role.pp, role.dp, role.cp, role.ep};
        std::snprintf(one, sizeof one, "%c%d", "TPDCE"[t.color_by], index[t.color_by]);
        if (ImGui::CalcTextSize(one).x < gpu_w) centered_text(dl, ImVec2(cx, ga.y + gpu_h / 2), ink, one);
      }
      if (hovered && mouse.x >= ga.x && mouse.x < gz.x && mouse.y >= ga.y && mouse.y < gz.y)
        ImGui::SetTooltip(tr(S::topo_gpu_tip), rank, node, role.tp, role.cp, role.pp, role.dp, role.ep);
    }
    // NICs under the switch.
    const int nics = std::min(k.nics_per_node, 8);
    const float nic_y = sz.y + 0.7f * em();
    const float nic_w = std::min(3.2f * em(), (node_w - 2 * pad) / static_cast<float>(nics) - 0.3f * em());
    const float row_w = static_cast<float>(nics) * (nic_w + 0.3f * em()) - 0.3f * em();
    for (int n = 0; n < nics; ++n) {
      const float nx = a.x + (node_w - row_w) / 2 + static_cast<float>(n) * (nic_w + 0.3f * em());
      dl->AddLine(ImVec2(nx + nic_w / 2, sz.y), ImVec2(nx + nic_w / 2, nic_y), line);
      dl->AddRectFilled(ImVec2(nx, nic_y), ImVec2(nx + nic_w, nic_y + nic_h), palette::kNic, 0.2f * em());
      if (nic_w > ImGui::CalcTextSize(tr(S::topo_nic)).x)
        centered_text(dl, ImVec2(nx + nic_w / 2, nic_y + nic_h / 2), text, tr(S::topo_nic));
      if (k.nodes > 1) nic_xs.push_back(nx + nic_w / 2);
    }
    if (k.nodes > 1)
      for (int n = 0; n < nics; ++n)
        dl->AddLine(ImVec2(nic_xs[nic_xs.size() - static_cast<size_t>(nics) + static_cast<size_t>(n)], nic_y + nic_h),
                    ImVec2(nic_xs[nic_xs.size() - static_cast<size_t>(nics) + static_cast<size_t>(n)], fabric_y),
                    fabric_color, 1.5f);
    x += node_w + node_gap;
  }
  // The scale-out fabric.
  char fabric[256];
  if (k.nodes > 1) {
    const float fx1 = x - node_gap;
    dl->AddRectFilled(ImVec2(origin.x, fabric_y), ImVec2(fx1, fabric_y + 0.45f * em()), fabric_color, 0.2f * em());
    std::snprintf(fabric, sizeof fabric, tr(S::topo_fabric), k.fabric_name.c_str(), k.nics_per_node, k.nic_gbps,
                  k.node_gbps, k.rdma ? tr(S::topo_rdma) : tr(S::topo_tcp));
    dl->AddText(ImVec2(origin.x, fabric_y + 0.7f * em()), text, fabric);
  } else {
    dl->AddText(ImVec2(origin.x, origin.y + node_h + 0.3f * em()), dim, tr(S::topo_single_node));
  }
  ImGui::Text(tr(S::topo_scale_up), k.scale_up_name.c_str(), format_bytes(k.scale_up_gb_per_s * 1e9).c_str());
  ImGui::PushTextWrapPos(0.0f);  // the legend names five roles: wrap it in narrow windows
  ImGui::TextDisabled("%s", tr(S::topo_legend));
  ImGui::PopTextWrapPos();
  if (k.tp > k.gpus_per_node) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
    ImGui::TextWrapped("%s", tr(S::topo_tp_crosses));
    ImGui::PopStyleColor();
  }
  return changed;
}

}  // namespace llmplan::web
