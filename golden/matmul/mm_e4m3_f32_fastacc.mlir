entry @mm_e4m3_f32_fastacc(%arg0: tile<ptr<f8E4M3FN>>, %arg1: tile<ptr<f8E4M3FN>>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 0> : tile<i32>
  %5 = constant <i32: 4> : tile<i32>
  %6 = constant <i32: 1> : tile<i32>
  %7 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %8, %9 = for %10 in (%4 to %5, step %6) : tile<i32> iter_values(%11 = %7, %12 = %0) -> (tile<64x64xf32>, token) {
    %13 = assume div_by<16>, %arg0 : tile<ptr<f8E4M3FN>>
    %14 = make_tensor_view %13, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf8E4M3FN, strides=[128,1]>
    %15 = make_partition_view %14 : partition_view<tile=(64x32), padding_value = zero, tensor_view<128x128xf8E4M3FN, strides=[128,1]>>
    %16, %17 = load_view_tko weak %15[%1, %10] token = %12 : partition_view<tile=(64x32), padding_value = zero, tensor_view<128x128xf8E4M3FN, strides=[128,1]>>, tile<i32> -> tile<64x32xf8E4M3FN>, token
    %18 = assume div_by<16>, %arg1 : tile<ptr<f8E4M3FN>>
    %19 = make_tensor_view %18, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf8E4M3FN, strides=[128,1]>
    %20 = make_partition_view %19 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x128xf8E4M3FN, strides=[128,1]>>
    %21, %22 = load_view_tko weak %20[%10, %2] token = %17 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x128xf8E4M3FN, strides=[128,1]>>, tile<i32> -> tile<32x64xf8E4M3FN>, token
    %23 = mmaf %16, %21, %11 fast_acc : tile<64x32xf8E4M3FN>, tile<32x64xf8E4M3FN>, tile<64x64xf32>
    continue %23, %22 : tile<64x64xf32>, token
  }
  %24 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %25 = make_tensor_view %24, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf32, strides=[128,1]>
  %26 = make_partition_view %25 : partition_view<tile=(64x64), padding_value = zero, tensor_view<128x128xf32, strides=[128,1]>>
  %27 = store_view_tko weak %8, %26[%1, %2] token = %9 : tile<64x64xf32>, partition_view<tile=(64x64), padding_value = zero, tensor_view<128x128xf32, strides=[128,1]>>, tile<i32> -> token
  return
}
