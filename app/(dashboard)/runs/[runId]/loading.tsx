import { PageSkeleton } from "@/components/ui/feedback";

export default function Loading() {
  return <PageSkeleton rows={8} />;
}
